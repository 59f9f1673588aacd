package format

// Default formats of squeue and sinfo in Slurm 22.05. Slurm keeps most of them in -O form;
// the trailing space of each name's width is the column separator.
const (
	// SqueueDefault is `squeue` without -o/-O (-O form).
	SqueueDefault = "jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,statecompact:.2 ,timeused:.10 ,numnodes:.6 ,reasonlist:0"
	// SqueueLong is `squeue -l` (-O form).
	SqueueLong = "jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,state:.8 ,timeused:.10 ,timelimit:.9 ,numnodes:.6 ,reasonlist:0"
	// SqueueClusterPrefix is put before the default formats when several clusters are shown.
	SqueueClusterPrefix = "cluster:10 ,"
	// SqueueStart is `squeue --start` (-o form).
	SqueueStart = "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R"
	// SqueueSteps is `squeue -s` (-o form).
	SqueueSteps = "%.15i %.8j %.9P %.8u %.9M %N"

	// SinfoDefault is `sinfo` (-O form); the partition and node-list widths are then
	// computed from the data (see SinfoAutoWidths).
	SinfoDefault = "partition:9 ,available:.5 ,time:.10 ,nodes:.6 ,statecompact:.6 ,nodelist:0"
	// SinfoLong is `sinfo -l`.
	SinfoLong = "partition:9 ,available:.5 ,time:.10 ,size:.10 ,root:.4 ,oversubscribe:.8 ,groups:.10 ,nodes:.6 ,statelong:.11 ,nodelist:0"
	// SinfoFed and SinfoFedLong are the federation variants with the cluster column.
	SinfoFed     = "partition:9 ,cluster:8 ,available:.5 ,time:.10 ,nodes:.6 ,statecompact:.6 ,nodelist:0"
	SinfoFedLong = "partition:9 ,cluster:8 ,available:.5 ,time:.10 ,size:.10 ,root:.4 ,oversubscribe:.8 ,groups:.10 ,nodes:.6 ,statelong:.11 ,nodelist:0"
	// SinfoSummarize is `sinfo -s`.
	SinfoSummarize = "partition:9 ,available:.5 ,time:.10 ,nodeaiot:.16 ,nodelist:0"
	// SinfoNode and SinfoNodeLong are `sinfo -N` and `sinfo -N -l`.
	SinfoNode     = "nodelist:0 ,nodes:.6 ,partition:.9 ,statecompact:6"
	SinfoNodeLong = "nodelist:0 ,nodes:.6 ,partition:.9 ,statelong:.11 ,cpus:4 ,socketcorethread:.8 ,memory:.6 ,disk:.8 ,weight:.6 ,features:.8 ,reason:20"
	// SinfoReasons and SinfoReasonsLong are `sinfo -R` and `sinfo -R -l`.
	SinfoReasons     = "reason:20 ,user:9 ,timestamp:19 ,nodelist:0"
	SinfoReasonsLong = "reason:20 ,userlong:12 ,timestamp:19 ,statecompact:6 ,nodelist:0"
)

// SqueueFormatFromEnv returns the format squeue takes from its environment when no format
// option was given: SQUEUE_FORMAT (-o form) wins over SQUEUE_FORMAT2 (-O form). ok is
// false when neither is set; a variable set to "" counts as set, as with C's getenv.
// lookup is os.LookupEnv or a stand-in.
func SqueueFormatFromEnv(lookup func(string) (string, bool)) (spec string, long bool, ok bool) {
	if v, set := lookup("SQUEUE_FORMAT"); set {
		return v, false, true
	}
	if v, set := lookup("SQUEUE_FORMAT2"); set {
		return v, true, true
	}
	return "", false, false
}

// SinfoFormatFromEnv returns SINFO_FORMAT (-o form), which sinfo uses only when no format
// option, -N, -R or -s was given.
func SinfoFormatFromEnv(lookup func(string) (string, bool)) (string, bool) {
	return lookup("SINFO_FORMAT")
}
