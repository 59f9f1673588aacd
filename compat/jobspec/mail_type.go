package jobspec

import "strings"

// mailTypeNames are the mail type bits in the order Slurm's print_mail_type names them.
var mailTypeNames = []struct {
	bit  uint16
	name string
}{
	{MailArrayTasks, "ARRAY_TASKS"}, {MailInvalidDepnd, "INVALID_DEPEND"},
	{MailBegin, "BEGIN"}, {MailEnd, "END"}, {MailFail, "FAIL"},
	{MailRequeue, "REQUEUE"}, {MailStageOut, "STAGE_OUT"},
	{MailTime50, "TIME_LIMIT_50"}, {MailTime80, "TIME_LIMIT_80"},
	{MailTime90, "TIME_LIMIT_90"}, {MailTime100, "TIME_LIMIT"},
}

// MailTypeString is Slurm's print_mail_type: the names of the bits set, or NONE.
func MailTypeString(m uint16) string {
	if m == 0 {
		return "NONE"
	}
	var names []string
	for _, t := range mailTypeNames {
		if m&t.bit != 0 {
			names = append(names, t.name)
		}
	}
	return strings.Join(names, ",")
}

// ParseMailType is Slurm's parse_mail_type (--mail-type, scontrol update MailType=): a
// comma list of names, case-insensitive. NONE ends the list with no type; names it does not
// know are passed over; ok is false only when nothing named a type and NONE was not given.
func ParseMailType(s string) (m uint16, ok bool) {
	for _, tok := range strings.Split(s, ",") {
		tok = strings.ToUpper(tok)
		if tok == "NONE" {
			return 0, true
		}
		switch tok {
		case "ALL":
			m |= MailInvalidDepnd | MailBegin | MailEnd | MailFail | MailRequeue | MailStageOut
		default:
			for _, t := range mailTypeNames {
				if t.name == tok {
					m |= t.bit
				}
			}
		}
	}
	return m, m != 0
}
