package wire

// Message type numbers. They are ONLY EVER APPENDED: a number, once used, keeps its meaning
// forever and is never reused or renumbered, because peers of different versions must agree
// on it. 0 is never a message, so a zeroed envelope cannot pass for one.
//
// Each message family gets its own block of 100 numbers, declared here so that every number
// in the system is visible in one place; its structs and Register calls live in a file of its
// own, named msg_<family>.go (see msg_transport.go for the pattern). To add a family, append a
// new block after the last one.
const (
	// Transport (msg_transport.go): 1–99.
	MsgOK        MsgType = 1 // generic success reply with no payload (Slurm's RESPONSE_SLURM_RC with 0)
	MsgError     MsgType = 2 // error reply: Slurm-style errno and text
	MsgPing      MsgType = 3 // liveness probe
	MsgPingReply MsgType = 4 // answer to MsgPing

	// Jobs, commands ↔ slurmctld (msg_job.go): 100–199.
	MsgSubmitBatchJob      MsgType = 100 // sbatch → slurmctld: JobDesc
	MsgSubmitBatchJobReply MsgType = 101 // the job id, once the job is durable
	MsgJobInfo             MsgType = 102 // squeue/scontrol → slurmctld: JobInfoRequest
	MsgJobInfoReply        MsgType = 103 // JobInfoReply
	MsgKillJob             MsgType = 104 // scancel → slurmctld: KillJobRequest (signal or cancel)
	MsgKillJobReply        MsgType = 105 // KillJobReply
	MsgUpdateJob           MsgType = 106 // scontrol hold/release/requeue → slurmctld: UpdateJobRequest
	MsgUpdateJobReply      MsgType = 107 // UpdateJobReply
	MsgJobWillRun          MsgType = 108 // sbatch/srun --test-only → slurmctld: JobWillRunRequest (msg_job_will_run.go)
	MsgJobWillRunReply     MsgType = 109 // JobWillRunReply: when and where the job would start
	MsgBatchScript         MsgType = 110 // scontrol write batch_script → slurmctld: BatchScriptRequest (msg_batch_script.go)
	MsgBatchScriptReply    MsgType = 111 // BatchScriptReply: the job's script

	// Nodes, slurmd ↔ slurmctld and commands → slurmctld (msg_node.go): 200–299.
	MsgNodeRegistration      MsgType = 200 // slurmd → slurmctld: one node's registration
	MsgNodeRegistrationReply MsgType = 201 // what the controller wants the node to do
	MsgNodeInfo              MsgType = 202 // sinfo/scontrol → slurmctld: NodeInfoRequest
	MsgNodeInfoReply         MsgType = 203 // NodeInfoReply
	MsgBatchJobComplete      MsgType = 204 // slurmd → slurmctld: a batch script ended
	MsgUpdateNode            MsgType = 205 // scontrol update NodeName= → slurmctld: UpdateNodeRequest (msg_node_update.go)
	MsgUpdatePartition       MsgType = 206 // scontrol update PartitionName= → slurmctld: UpdatePartitionRequest
	MsgPrologComplete        MsgType = 207 // slurmd → slurmctld: a job's prolog failed on a node (REQUEST_COMPLETE_PROLOG)
	MsgEpilogComplete        MsgType = 208 // slurmd → slurmctld: a job's epilog ran on a node (MESSAGE_EPILOG_COMPLETE)
	MsgCreatePartition       MsgType = 209 // scontrol create PartitionName= → slurmctld: CreatePartitionRequest
	MsgDeletePartition       MsgType = 210 // scontrol delete PartitionName= → slurmctld: DeletePartitionRequest

	// Launch and job control, slurmctld → slurmd (msg_launch.go): 300–399.
	MsgLaunchBatchJob MsgType = 300 // start a job's batch script on one node
	MsgSignalJob      MsgType = 301 // signal every step of a job on one node
	MsgTerminateJob   MsgType = 302 // end a job on one node: its steps are killed, then it reports back

	// Steps and interactive allocations, srun ↔ slurmctld and srun ↔ slurmd (msg_step.go):
	// 400–499.
	MsgAllocateJob       MsgType = 400 // srun → slurmctld: JobDesc without a script
	MsgAllocateJobReply  MsgType = 401 // the job id, once durable
	MsgJobAllocInfo      MsgType = 402 // srun → slurmctld: JobAllocInfoRequest (poll)
	MsgJobAllocInfoReply MsgType = 403 // JobAllocInfo
	MsgStepCreate        MsgType = 404 // srun → slurmctld: StepCreateRequest
	MsgStepCreateReply   MsgType = 405 // StepCreateReply: step id, layout, credential
	MsgStepComplete      MsgType = 406 // srun → slurmctld: StepComplete
	MsgCompleteJobAlloc  MsgType = 407 // srun → slurmctld: CompleteJobAlloc (release)
	MsgLaunchTasks       MsgType = 408 // srun → slurmd: LaunchTasks
	MsgSignalTasks       MsgType = 409 // srun → slurmd: SignalTasks (Ctrl-C, task failure)
	MsgLaunchTasksMany   MsgType = 410 // srun → slurmd: LaunchTasksMany (one launch for every node a slurmd hosts)
	MsgLaunchTasksReply  MsgType = 411 // LaunchTasksManyReply: one result per node
	MsgFileBcast         MsgType = 412 // srun --bcast → slurmd: FileBcast (REQUEST_FILE_BCAST)
	MsgUpdateStep        MsgType = 413 // scontrol update StepId= → slurmctld: UpdateStepRequest (msg_step_update.go), MsgOK
	MsgStepTimeLimit     MsgType = 414 // slurmctld → slurmd: StepTimeLimit, a live step's new time limit

	// Controller administration, scontrol → slurmctld (msg_admin.go): 500–599.
	MsgBuildInfo      MsgType = 500 // scontrol show config: BuildInfoRequest
	MsgBuildInfoReply MsgType = 501 // BuildInfoReply
	MsgReconfigure    MsgType = 502 // scontrol reconfigure: MsgOK when done
	MsgShutdown       MsgType = 503 // scontrol shutdown: ShutdownRequest, MsgOK before it stops
	MsgSetDebugLevel  MsgType = 504 // scontrol setdebug: SetDebugLevelRequest (REQUEST_SET_DEBUG_LEVEL)
	MsgSetDebugFlags  MsgType = 505 // scontrol setdebugflags: SetDebugFlagsRequest (REQUEST_SET_DEBUGFLAGS)
	MsgSetSchedLog    MsgType = 506 // scontrol schedloglevel: SetSchedLogRequest (REQUEST_SET_SCHEDLOG_LEVEL)
	MsgSetFSDampening MsgType = 507 // scontrol fsdampeningfactor: SetFSDampeningRequest (REQUEST_SET_FS_DAMPENING_FACTOR)

	// Broadcasts down the node tree, slurmctld → slurmd → slurmd (msg_forward.go): 600–699.
	MsgForward            MsgType = 600 // Forward: an inner message for a list of nodes, fanned out with TreeWidth
	MsgForwardReply       MsgType = 601 // ForwardReply: one aggregated result list for the whole subtree
	MsgRegistrationStatus MsgType = 602 // RegistrationStatus: register again (REQUEST_NODE_REGISTRATION_STATUS)
	MsgRegisterBatch      MsgType = 603 // slurmd → slurmctld: many hosted nodes' registrations at once (msg_registration_batch.go)
	MsgRegisterBatchReply MsgType = 604 // NodeRegistrationBatchReply: one result per registration
	MsgHealthCheck        MsgType = 605 // HealthCheck: run HealthCheckProgram (REQUEST_HEALTH_CHECK)

	// Accounting, sacct → slurmctld (msg_acct.go): 700–799.
	MsgAcctQuery      MsgType = 700 // sacct → slurmctld: AcctQueryRequest (DBD_GET_JOBS_COND)
	MsgAcctQueryReply MsgType = 701 // AcctQueryReply: the selected jobs with their steps

	// Controller statistics, sdiag → slurmctld (msg_stats.go): 800–899.
	MsgStats      MsgType = 800 // sdiag → slurmctld: StatsRequest (REQUEST_STATS_INFO; Reset is sdiag -r)
	MsgStatsReply MsgType = 801 // StatsReply (RESPONSE_STATS_INFO)

	// Job priority factors, sprio → slurmctld (msg_priority.go): 900–999.
	MsgPriorityFactors      MsgType = 900 // sprio → slurmctld: PriorityFactorsRequest (REQUEST_PRIORITY_FACTORS)
	MsgPriorityFactorsReply MsgType = 901 // PriorityFactorsReply (RESPONSE_PRIORITY_FACTORS)

	// Licenses, scontrol → slurmctld (msg_license.go): 1000–1099.
	MsgLicenseInfo      MsgType = 1000 // scontrol show licenses: LicenseInfoRequest (REQUEST_LICENSE_INFO)
	MsgLicenseInfoReply MsgType = 1001 // LicenseInfoReply (RESPONSE_LICENSE_INFO)

	// Queries of the local slurmd, scontrol → slurmd (msg_node_query.go): 1100–1199.
	MsgStepPids          MsgType = 1100 // scontrol listpids: StepPidsRequest (Slurm asks each slurmstepd)
	MsgStepPidsReply     MsgType = 1101 // StepPidsReply: every matching step's processes
	MsgPidJob            MsgType = 1102 // scontrol pidinfo: PidJobRequest (REQUEST_JOB_ID)
	MsgPidJobReply       MsgType = 1103 // PidJobReply: the job the process belongs to
	MsgDaemonStatus      MsgType = 1104 // scontrol show slurmd: DaemonStatusRequest (REQUEST_DAEMON_STATUS)
	MsgDaemonStatusReply MsgType = 1105 // DaemonStatusReply (RESPONSE_SLURMD_STATUS)

	// Advance reservations, scontrol/sinfo → slurmctld (msg_resv.go): 1200–1299.
	MsgCreateResv      MsgType = 1200 // scontrol create reservation: ResvDesc (REQUEST_CREATE_RESERVATION)
	MsgCreateResvReply MsgType = 1201 // CreateResvReply: the reservation's name
	MsgUpdateResv      MsgType = 1202 // scontrol update reservation: ResvDesc (REQUEST_UPDATE_RESERVATION), MsgOK
	MsgDeleteResv      MsgType = 1203 // scontrol delete reservation: DeleteResvRequest (REQUEST_DELETE_RESERVATION), MsgOK
	MsgResvInfo        MsgType = 1204 // scontrol show res, sinfo -T: ResvInfoRequest (REQUEST_RESERVATION_INFO)
	MsgResvInfoReply   MsgType = 1205 // ResvInfoReply

	// Next family: 1300–1399.
)
