package states

// Reason is why a job is pending or how it ended (Reason= in scontrol, %r/%R in squeue).
type Reason uint32

// Job state reasons, in Slurm's numbering.
const (
	WaitNoReason Reason = iota
	WaitPriority
	WaitDependency
	WaitResources
	WaitPartNodeLimit
	WaitPartTimeLimit
	WaitPartDown
	WaitPartInactive
	WaitHeld
	WaitTime
	WaitLicenses
	WaitAssocJobLimit
	WaitAssocResourceLimit
	WaitAssocTimeLimit
	WaitReservation
	WaitNodeNotAvail
	WaitHeldUser
	WaitFrontEnd
	FailDefer
	FailDownPartition
	FailDownNode
	FailBadConstraints
	FailSystem
	FailLaunch
	FailExitCode
	FailTimeout
	FailInactiveLimit
	FailAccount
	FailQOS
	WaitQOSThres
	WaitQOSJobLimit
	WaitQOSResourceLimit
	WaitQOSTimeLimit
	WaitBlockMaxErr
	WaitBlockDAction
	WaitCleaning
	WaitProlog
	WaitQOS
	WaitAccount
	WaitDepInvalid
	WaitQOSGrpCPU
	WaitQOSGrpCPUMin
	WaitQOSGrpCPURunMin
	WaitQOSGrpJob
	WaitQOSGrpMem
	WaitQOSGrpNode
	WaitQOSGrpSubJob
	WaitQOSGrpWall
	WaitQOSMaxCPUPerJob
	WaitQOSMaxCPUMinsPerJob
	WaitQOSMaxNodePerJob
	WaitQOSMaxWallPerJob
	WaitQOSMaxCPUPerUser
	WaitQOSMaxJobPerUser
	WaitQOSMaxNodePerUser
	WaitQOSMaxSubJob
	WaitQOSMinCPU
	WaitAssocGrpCPU
	WaitAssocGrpCPUMin
	WaitAssocGrpCPURunMin
	WaitAssocGrpJob
	WaitAssocGrpMem
	WaitAssocGrpNode
	WaitAssocGrpSubJob
	WaitAssocGrpWall
	WaitAssocMaxJobs
	WaitAssocMaxCPUPerJob
	WaitAssocMaxCPUMinsPerJob
	WaitAssocMaxNodePerJob
	WaitAssocMaxWallPerJob
	WaitAssocMaxSubJob
	WaitMaxRequeue
	WaitArrayTaskLimit
	WaitBurstBufferResource
	WaitBurstBufferStaging
	FailBurstBufferOp
	WaitPowerNotAvail
	WaitPowerReserved
	WaitAssocGrpUnk
	WaitAssocGrpUnkMin
	WaitAssocGrpUnkRunMin
	WaitAssocMaxUnkPerJob
	WaitAssocMaxUnkPerNode
	WaitAssocMaxUnkMinsPerJob
	WaitAssocMaxCPUPerNode
	WaitAssocGrpMemMin
	WaitAssocGrpMemRunMin
	WaitAssocMaxMemPerJob
	WaitAssocMaxMemPerNode
	WaitAssocMaxMemMinsPerJob
	WaitAssocGrpNodeMin
	WaitAssocGrpNodeRunMin
	WaitAssocMaxNodeMinsPerJob
	WaitAssocGrpEnergy
	WaitAssocGrpEnergyMin
	WaitAssocGrpEnergyRunMin
	WaitAssocMaxEnergyPerJob
	WaitAssocMaxEnergyPerNode
	WaitAssocMaxEnergyMinsPerJob
	WaitAssocGrpGRES
	WaitAssocGrpGRESMin
	WaitAssocGrpGRESRunMin
	WaitAssocMaxGRESPerJob
	WaitAssocMaxGRESPerNode
	WaitAssocMaxGRESMinsPerJob
	WaitAssocGrpLic
	WaitAssocGrpLicMin
	WaitAssocGrpLicRunMin
	WaitAssocMaxLicPerJob
	WaitAssocMaxLicMinsPerJob
	WaitAssocGrpBB
	WaitAssocGrpBBMin
	WaitAssocGrpBBRunMin
	WaitAssocMaxBBPerJob
	WaitAssocMaxBBPerNode
	WaitAssocMaxBBMinsPerJob
	WaitQOSGrpUnk
	WaitQOSGrpUnkMin
	WaitQOSGrpUnkRunMin
	WaitQOSMaxUnkPerJob
	WaitQOSMaxUnkPerNode
	WaitQOSMaxUnkPerUser
	WaitQOSMaxUnkMinsPerJob
	WaitQOSMinUnk
	WaitQOSMaxCPUPerNode
	WaitQOSGrpMemMin
	WaitQOSGrpMemRunMin
	WaitQOSMaxMemMinsPerJob
	WaitQOSMaxMemPerJob
	WaitQOSMaxMemPerNode
	WaitQOSMaxMemPerUser
	WaitQOSMinMem
	WaitQOSGrpEnergy
	WaitQOSGrpEnergyMin
	WaitQOSGrpEnergyRunMin
	WaitQOSMaxEnergyPerJob
	WaitQOSMaxEnergyPerNode
	WaitQOSMaxEnergyPerUser
	WaitQOSMaxEnergyMinsPerJob
	WaitQOSMinEnergy
	WaitQOSGrpNodeMin
	WaitQOSGrpNodeRunMin
	WaitQOSMaxNodeMinsPerJob
	WaitQOSMinNode
	WaitQOSGrpGRES
	WaitQOSGrpGRESMin
	WaitQOSGrpGRESRunMin
	WaitQOSMaxGRESPerJob
	WaitQOSMaxGRESPerNode
	WaitQOSMaxGRESPerUser
	WaitQOSMaxGRESMinsPerJob
	WaitQOSMinGRES
	WaitQOSGrpLic
	WaitQOSGrpLicMin
	WaitQOSGrpLicRunMin
	WaitQOSMaxLicPerJob
	WaitQOSMaxLicPerUser
	WaitQOSMaxLicMinsPerJob
	WaitQOSMinLic
	WaitQOSGrpBB
	WaitQOSGrpBBMin
	WaitQOSGrpBBRunMin
	WaitQOSMaxBBPerJob
	WaitQOSMaxBBPerNode
	WaitQOSMaxBBPerUser
	WaitQOSMaxBBMinsPerJob
	WaitQOSMinBB
	FailDeadline
	WaitQOSMaxBBPerAcct
	WaitQOSMaxCPUPerAcct
	WaitQOSMaxEnergyPerAcct
	WaitQOSMaxGRESPerAcct
	WaitQOSMaxNodePerAcct
	WaitQOSMaxLicPerAcct
	WaitQOSMaxMemPerAcct
	WaitQOSMaxUnkPerAcct
	WaitQOSMaxJobPerAcct
	WaitQOSMaxSubJobPerAcct
	WaitPartConfig
	WaitAccountPolicy
	WaitFedJobLock
	FailOOM
	WaitPnMemLimit
	WaitAssocGrpBilling
	WaitAssocGrpBillingMin
	WaitAssocGrpBillingRunMin
	WaitAssocMaxBillingPerJob
	WaitAssocMaxBillingPerNode
	WaitAssocMaxBillingMinsPerJob
	WaitQOSGrpBilling
	WaitQOSGrpBillingMin
	WaitQOSGrpBillingRunMin
	WaitQOSMaxBillingPerJob
	WaitQOSMaxBillingPerNode
	WaitQOSMaxBillingPerUser
	WaitQOSMaxBillingMinsPerJob
	WaitQOSMaxBillingPerAcct
	WaitQOSMinBilling
	WaitResvDeleted
	reasonEnd
)

var reasonNames = [reasonEnd]string{
	WaitNoReason:                  "None",
	WaitPriority:                  "Priority",
	WaitDependency:                "Dependency",
	WaitResources:                 "Resources",
	WaitPartNodeLimit:             "PartitionNodeLimit",
	WaitPartTimeLimit:             "PartitionTimeLimit",
	WaitPartDown:                  "PartitionDown",
	WaitPartInactive:              "PartitionInactive",
	WaitHeld:                      "JobHeldAdmin",
	WaitTime:                      "BeginTime",
	WaitLicenses:                  "Licenses",
	WaitAssocJobLimit:             "AssociationJobLimit",
	WaitAssocResourceLimit:        "AssociationResourceLimit",
	WaitAssocTimeLimit:            "AssociationTimeLimit",
	WaitReservation:               "Reservation",
	WaitNodeNotAvail:              "ReqNodeNotAvail",
	WaitHeldUser:                  "JobHeldUser",
	WaitFrontEnd:                  "FrontEndDown",
	FailDefer:                     "SchedDefer",
	FailDownPartition:             "PartitionDown",
	FailDownNode:                  "NodeDown",
	FailBadConstraints:            "BadConstraints",
	FailSystem:                    "SystemFailure",
	FailLaunch:                    "JobLaunchFailure",
	FailExitCode:                  "NonZeroExitCode",
	FailTimeout:                   "TimeLimit",
	FailInactiveLimit:             "InactiveLimit",
	FailAccount:                   "InvalidAccount",
	FailQOS:                       "InvalidQOS",
	WaitQOSThres:                  "QOSUsageThreshold",
	WaitQOSJobLimit:               "QOSJobLimit",
	WaitQOSResourceLimit:          "QOSResourceLimit",
	WaitQOSTimeLimit:              "QOSTimeLimit",
	WaitBlockMaxErr:               "BlockMaxError",
	WaitBlockDAction:              "BlockFreeAction",
	WaitCleaning:                  "Cleaning",
	WaitProlog:                    "Prolog",
	WaitQOS:                       "QOSNotAllowed",
	WaitAccount:                   "AccountNotAllowed",
	WaitDepInvalid:                "DependencyNeverSatisfied",
	WaitQOSGrpCPU:                 "QOSGrpCpuLimit",
	WaitQOSGrpCPUMin:              "QOSGrpCPUMinutesLimit",
	WaitQOSGrpCPURunMin:           "QOSGrpCPURunMinutesLimit",
	WaitQOSGrpJob:                 "QOSGrpJobsLimit",
	WaitQOSGrpMem:                 "QOSGrpMemLimit",
	WaitQOSGrpNode:                "QOSGrpNodeLimit",
	WaitQOSGrpSubJob:              "QOSGrpSubmitJobsLimit",
	WaitQOSGrpWall:                "QOSGrpWallLimit",
	WaitQOSMaxCPUPerJob:           "QOSMaxCpuPerJobLimit",
	WaitQOSMaxCPUMinsPerJob:       "QOSMaxCpuMinutesPerJobLimit",
	WaitQOSMaxNodePerJob:          "QOSMaxNodePerJobLimit",
	WaitQOSMaxWallPerJob:          "QOSMaxWallDurationPerJobLimit",
	WaitQOSMaxCPUPerUser:          "QOSMaxCpuPerUserLimit",
	WaitQOSMaxJobPerUser:          "QOSMaxJobsPerUserLimit",
	WaitQOSMaxNodePerUser:         "QOSMaxNodePerUserLimit",
	WaitQOSMaxSubJob:              "QOSMaxSubmitJobPerUserLimit",
	WaitQOSMinCPU:                 "QOSMinCpuNotSatisfied",
	WaitAssocGrpCPU:               "AssocGrpCpuLimit",
	WaitAssocGrpCPUMin:            "AssocGrpCPUMinutesLimit",
	WaitAssocGrpCPURunMin:         "AssocGrpCPURunMinutesLimit",
	WaitAssocGrpJob:               "AssocGrpJobsLimit",
	WaitAssocGrpMem:               "AssocGrpMemLimit",
	WaitAssocGrpNode:              "AssocGrpNodeLimit",
	WaitAssocGrpSubJob:            "AssocGrpSubmitJobsLimit",
	WaitAssocGrpWall:              "AssocGrpWallLimit",
	WaitAssocMaxJobs:              "AssocMaxJobsLimit",
	WaitAssocMaxCPUPerJob:         "AssocMaxCpuPerJobLimit",
	WaitAssocMaxCPUMinsPerJob:     "AssocMaxCpuMinutesPerJobLimit",
	WaitAssocMaxNodePerJob:        "AssocMaxNodePerJobLimit",
	WaitAssocMaxWallPerJob:        "AssocMaxWallDurationPerJobLimit",
	WaitAssocMaxSubJob:            "AssocMaxSubmitJobLimit",
	WaitMaxRequeue:                "JobHoldMaxRequeue",
	WaitArrayTaskLimit:            "JobArrayTaskLimit",
	WaitBurstBufferResource:       "BurstBufferResources",
	WaitBurstBufferStaging:        "BurstBufferStageIn",
	FailBurstBufferOp:             "BurstBufferOperation",
	WaitPowerNotAvail:             "PowerNotAvail",
	WaitPowerReserved:             "PowerReserved",
	WaitAssocGrpUnk:               "AssocGrpUnknown",
	WaitAssocGrpUnkMin:            "AssocGrpUnknownMinutes",
	WaitAssocGrpUnkRunMin:         "AssocGrpUnknownRunMinutes",
	WaitAssocMaxUnkPerJob:         "AssocMaxUnknownPerJob",
	WaitAssocMaxUnkPerNode:        "AssocMaxUnknownPerNode",
	WaitAssocMaxUnkMinsPerJob:     "AssocMaxUnknownMinutesPerJob",
	WaitAssocMaxCPUPerNode:        "AssocMaxCpuPerNode",
	WaitAssocGrpMemMin:            "AssocGrpMemMinutes",
	WaitAssocGrpMemRunMin:         "AssocGrpMemRunMinutes",
	WaitAssocMaxMemPerJob:         "AssocMaxMemPerJob",
	WaitAssocMaxMemPerNode:        "AssocMaxMemPerNode",
	WaitAssocMaxMemMinsPerJob:     "AssocMaxMemMinutesPerJob",
	WaitAssocGrpNodeMin:           "AssocGrpNodeMinutes",
	WaitAssocGrpNodeRunMin:        "AssocGrpNodeRunMinutes",
	WaitAssocMaxNodeMinsPerJob:    "AssocMaxNodeMinutesPerJob",
	WaitAssocGrpEnergy:            "AssocGrpEnergy",
	WaitAssocGrpEnergyMin:         "AssocGrpEnergyMinutes",
	WaitAssocGrpEnergyRunMin:      "AssocGrpEnergyRunMinutes",
	WaitAssocMaxEnergyPerJob:      "AssocMaxEnergyPerJob",
	WaitAssocMaxEnergyPerNode:     "AssocMaxEnergyPerNode",
	WaitAssocMaxEnergyMinsPerJob:  "AssocMaxEnergyMinutesPerJob",
	WaitAssocGrpGRES:              "AssocGrpGRES",
	WaitAssocGrpGRESMin:           "AssocGrpGRESMinutes",
	WaitAssocGrpGRESRunMin:        "AssocGrpGRESRunMinutes",
	WaitAssocMaxGRESPerJob:        "AssocMaxGRESPerJob",
	WaitAssocMaxGRESPerNode:       "AssocMaxGRESPerNode",
	WaitAssocMaxGRESMinsPerJob:    "AssocMaxGRESMinutesPerJob",
	WaitAssocGrpLic:               "AssocGrpLicense",
	WaitAssocGrpLicMin:            "AssocGrpLicenseMinutes",
	WaitAssocGrpLicRunMin:         "AssocGrpLicenseRunMinutes",
	WaitAssocMaxLicPerJob:         "AssocMaxLicensePerJob",
	WaitAssocMaxLicMinsPerJob:     "AssocMaxLicenseMinutesPerJob",
	WaitAssocGrpBB:                "AssocGrpBB",
	WaitAssocGrpBBMin:             "AssocGrpBBMinutes",
	WaitAssocGrpBBRunMin:          "AssocGrpBBRunMinutes",
	WaitAssocMaxBBPerJob:          "AssocMaxBBPerJob",
	WaitAssocMaxBBPerNode:         "AssocMaxBBPerNode",
	WaitAssocMaxBBMinsPerJob:      "AssocMaxBBMinutesPerJob",
	WaitQOSGrpUnk:                 "QOSGrpUnknown",
	WaitQOSGrpUnkMin:              "QOSGrpUnknownMinutes",
	WaitQOSGrpUnkRunMin:           "QOSGrpUnknownRunMinutes",
	WaitQOSMaxUnkPerJob:           "QOSMaxUnknownPerJob",
	WaitQOSMaxUnkPerNode:          "QOSMaxUnknownPerNode",
	WaitQOSMaxUnkPerUser:          "QOSMaxUnknownPerUser",
	WaitQOSMaxUnkMinsPerJob:       "QOSMaxUnknownMinutesPerJob",
	WaitQOSMinUnk:                 "QOSMinUnknown",
	WaitQOSMaxCPUPerNode:          "QOSMaxCpuPerNode",
	WaitQOSGrpMemMin:              "QOSGrpMemoryMinutes",
	WaitQOSGrpMemRunMin:           "QOSGrpMemoryRunMinutes",
	WaitQOSMaxMemMinsPerJob:       "QOSMaxMemoryMinutesPerJob",
	WaitQOSMaxMemPerJob:           "QOSMaxMemoryPerJob",
	WaitQOSMaxMemPerNode:          "QOSMaxMemoryPerNode",
	WaitQOSMaxMemPerUser:          "QOSMaxMemoryPerUser",
	WaitQOSMinMem:                 "QOSMinMemory",
	WaitQOSGrpEnergy:              "QOSGrpEnergy",
	WaitQOSGrpEnergyMin:           "QOSGrpEnergyMinutes",
	WaitQOSGrpEnergyRunMin:        "QOSGrpEnergyRunMinutes",
	WaitQOSMaxEnergyPerJob:        "QOSMaxEnergyPerJob",
	WaitQOSMaxEnergyPerNode:       "QOSMaxEnergyPerNode",
	WaitQOSMaxEnergyPerUser:       "QOSMaxEnergyPerUser",
	WaitQOSMaxEnergyMinsPerJob:    "QOSMaxEnergyMinutesPerJob",
	WaitQOSMinEnergy:              "QOSMinEnergy",
	WaitQOSGrpNodeMin:             "QOSGrpNodeMinutes",
	WaitQOSGrpNodeRunMin:          "QOSGrpNodeRunMinutes",
	WaitQOSMaxNodeMinsPerJob:      "QOSMaxNodeMinutesPerJob",
	WaitQOSMinNode:                "QOSMinNode",
	WaitQOSGrpGRES:                "QOSGrpGRES",
	WaitQOSGrpGRESMin:             "QOSGrpGRESMinutes",
	WaitQOSGrpGRESRunMin:          "QOSGrpGRESRunMinutes",
	WaitQOSMaxGRESPerJob:          "QOSMaxGRESPerJob",
	WaitQOSMaxGRESPerNode:         "QOSMaxGRESPerNode",
	WaitQOSMaxGRESPerUser:         "QOSMaxGRESPerUser",
	WaitQOSMaxGRESMinsPerJob:      "QOSMaxGRESMinutesPerJob",
	WaitQOSMinGRES:                "QOSMinGRES",
	WaitQOSGrpLic:                 "QOSGrpLicense",
	WaitQOSGrpLicMin:              "QOSGrpLicenseMinutes",
	WaitQOSGrpLicRunMin:           "QOSGrpLicenseRunMinutes",
	WaitQOSMaxLicPerJob:           "QOSMaxLicensePerJob",
	WaitQOSMaxLicPerUser:          "QOSMaxLicensePerUser",
	WaitQOSMaxLicMinsPerJob:       "QOSMaxLicenseMinutesPerJob",
	WaitQOSMinLic:                 "QOSMinLicense",
	WaitQOSGrpBB:                  "QOSGrpBB",
	WaitQOSGrpBBMin:               "QOSGrpBBMinutes",
	WaitQOSGrpBBRunMin:            "QOSGrpBBRunMinutes",
	WaitQOSMaxBBPerJob:            "QOSMaxBBPerJob",
	WaitQOSMaxBBPerNode:           "QOSMaxBBPerNode",
	WaitQOSMaxBBPerUser:           "QOSMaxBBPerUser",
	WaitQOSMaxBBMinsPerJob:        "AssocMaxBBMinutesPerJob",
	WaitQOSMinBB:                  "QOSMinBB",
	FailDeadline:                  "DeadLine",
	WaitQOSMaxBBPerAcct:           "MaxBBPerAccount",
	WaitQOSMaxCPUPerAcct:          "MaxCpuPerAccount",
	WaitQOSMaxEnergyPerAcct:       "MaxEnergyPerAccount",
	WaitQOSMaxGRESPerAcct:         "MaxGRESPerAccount",
	WaitQOSMaxNodePerAcct:         "MaxNodePerAccount",
	WaitQOSMaxLicPerAcct:          "MaxLicensePerAccount",
	WaitQOSMaxMemPerAcct:          "MaxMemoryPerAccount",
	WaitQOSMaxUnkPerAcct:          "MaxUnknownPerAccount",
	WaitQOSMaxJobPerAcct:          "MaxJobsPerAccount",
	WaitQOSMaxSubJobPerAcct:       "MaxSubmitJobsPerAccount",
	WaitPartConfig:                "PartitionConfig",
	WaitAccountPolicy:             "AccountingPolicy",
	WaitFedJobLock:                "FedJobLock",
	FailOOM:                       "OutOfMemory",
	WaitPnMemLimit:                "MaxMemPerLimit",
	WaitAssocGrpBilling:           "AssocGrpBilling",
	WaitAssocGrpBillingMin:        "AssocGrpBillingMinutes",
	WaitAssocGrpBillingRunMin:     "AssocGrpBillingRunMinutes",
	WaitAssocMaxBillingPerJob:     "AssocMaxBillingPerJob",
	WaitAssocMaxBillingPerNode:    "AssocMaxBillingPerNode",
	WaitAssocMaxBillingMinsPerJob: "AssocMaxBillingMinutesPerJob",
	WaitQOSGrpBilling:             "QOSGrpBilling",
	WaitQOSGrpBillingMin:          "QOSGrpBillingMinutes",
	WaitQOSGrpBillingRunMin:       "QOSGrpBillingRunMinutes",
	WaitQOSMaxBillingPerJob:       "QOSMaxBillingPerJob",
	WaitQOSMaxBillingPerNode:      "QOSMaxBillingPerNode",
	WaitQOSMaxBillingPerUser:      "QOSMaxBillingPerUser",
	WaitQOSMaxBillingMinsPerJob:   "QOSMaxBillingMinutesPerJob",
	WaitQOSMaxBillingPerAcct:      "MaxBillingPerAccount",
	WaitQOSMinBilling:             "QOSMinBilling",
	WaitResvDeleted:               "ReservationDeleted",
}
