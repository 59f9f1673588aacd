package conf

// PreemptModeNum is Slurm's preempt_mode_num for commands and the controller: the bits of a
// PreemptMode value (one mode, optionally with GANG or WITHIN); ok is false where Slurm
// returns NO_VAL16 (an unknown word, two modes, GANG with WITHIN).
func PreemptModeNum(v string) (bits uint16, ok bool) { return preemptModeNum(v) }

// PartitionPreemptModeUpdate is the PreemptMode a partition takes from bits as Slurm's
// update_part sets it: GANG is dropped and the mode named as preempt_mode_string names it
// (OFF, SUSPEND, REQUEUE, CANCEL); ok is false for what remains beyond CANCEL (WITHIN),
// which Slurm's controller logs and ignores.
func PartitionPreemptModeUpdate(bits uint16) (mode string, ok bool) {
	switch bits &^ preemptGang {
	case preemptOff:
		return "OFF", true
	case preemptSuspend:
		return "SUSPEND", true
	case preemptRequeue:
		return "REQUEUE", true
	case preemptCancel:
		return "CANCEL", true
	}
	return "", false
}
