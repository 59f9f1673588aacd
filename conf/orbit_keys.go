package conf

// OrbitKeys are the slurm.conf keys Orbit adds for its research features (DESIGN.md §7–§10).
// They live in the same registry as Slurm's keys, so an unknown key is still an error and
// these are documented in one place: this table, rendered as ORBIT_KEYS.md by
// `go test ./conf -run TestOrbitKeysDoc -update`. A site that sets none of them gets plain
// Slurm 22.05 behaviour.
var OrbitKeys = []Key{
	{Name: "MediateMachine", Kind: KindString, Show: ShowPlain, Orbit: true,
		Doc: "Hostlist of the satellite relay hosts (satellited) the controller fans broadcasts out through " +
			"(ESLURM). Unset: the controller talks to every slurmd directly, as Slurm does."},
	{Name: "MediateWidth", Kind: KindUint16, Show: ShowPlain, Orbit: true,
		Doc: "How many nodes one satellite serves before splitting a broadcast further. Default 2 × TreeWidth; " +
			"a value ≤ TreeWidth is an error (a satellite must fan out wider than a slurmd)."},
	{Name: "FailurePredictorType", Kind: KindString, Default: "failure_predictor/recent", Show: ShowPlain, Orbit: true,
		Doc: "Plugin that predicts which nodes are about to fail, so the relay tree puts them at leaf positions " +
			"(FP-tree). failure_predictor/recent marks nodes with recent failures or missed pings; " +
			"failure_predictor/none disables reordering."},
	{Name: "RuntimePredictorType", Kind: KindString, Default: "runtime_predictor/none", Show: ShowPlain, Orbit: true,
		Doc: "Plugin that predicts job run times for backfill planning. runtime_predictor/none (default) plans " +
			"with the jobs' time limits as Slurm does; runtime_predictor/kmeans_svr clusters finished jobs " +
			"(K-means++) and fits one support-vector regression per cluster (ESLURM). A prediction never " +
			"shortens a job's enforced time limit."},
	{Name: "RuntimePredictorParameters", Kind: KindString, Show: ShowPlain, Orbit: true,
		Doc: "Comma-separated options of the runtime predictor: clusters=K (default 15), elbow (choose K by the " +
			"elbow method), retrain_interval=H hours (default 15), training_jobs=N finished jobs (default 700), " +
			"alpha=A underestimate penalty factor (default 1.05, ≥ 1), aea_threshold=T (default 0.9, in (0,1]): " +
			"predictions are used when the job gave no time limit or its cluster's average estimate accuracy is above T."},
	{Name: "PowerCorridor", Kind: KindString, Show: ShowPlain, Orbit: true,
		Doc: "lower,upper: the cluster power corridor in watts that sched/poweraware keeps the cluster inside " +
			"(lower < upper). Changeable at run time with scontrol."},
	{Name: "PowerIdleWatts", Kind: KindUint32, Default: "0", Show: ShowPlain, Orbit: true,
		Doc: "Power drawn by one idle node, in watts, used by sched/poweraware's redistribution model."},
	{Name: "DeadlineAdmission", Kind: KindBool, Default: "No", Show: ShowYesNo, Orbit: true,
		Doc: "Yes: a job submitted with --deadline is accepted only if a reservation meeting its deadline exists " +
			"at submit time, and rejected with a clear message otherwise. No (default): --deadline behaves as in Slurm."},
	{Name: "TopologyAllocator", Kind: KindString, Default: "linear", Show: ShowPlain, Orbit: true,
		Doc: "Node-set allocator for grid/torus topologies: linear (default, Slurm's order), hilbert " +
			"(Hilbert-curve first fit), manhattan (Manhattan-median greedy growth) or leak (dynamic, grows " +
			"through the adaptation protocol)."},
	{Name: "OrbitControllers", Kind: KindString, Show: ShowPlain, Orbit: true,
		Doc: "Slurm++ mode: the list of controllers as name(addr) entries separated by commas, each owning a " +
			"share of the nodes and stealing free nodes from the others through OrbitStore. Unset: one controller."},
	{Name: "OrbitStore", Kind: KindString, Default: "embedded", Show: ShowPlain, Orbit: true,
		Doc: "Where the controllers of OrbitControllers share free-node sets: \"embedded\" (default, an etcd " +
			"member inside each controller, for one machine) or a comma-separated list of etcd endpoint URLs."},
}

// Runtime predictor defaults (DESIGN.md §7).
const (
	DefaultPredictorClusters        = 15
	DefaultPredictorRetrainHours    = 15
	DefaultPredictorTrainingJobs    = 700
	DefaultPredictorAlpha           = 1.05
	DefaultPredictorAEAThreshold    = 0.9
	runtimePredictorParametersUsage = "clusters, elbow, retrain_interval, training_jobs, alpha, aea_threshold"
)
