package wire

// Advance reservations: scontrol create/update/delete reservation and show reservation,
// sinfo -T (Slurm's REQUEST_CREATE_RESERVATION and its kin).

func init() {
	Register(MsgCreateResv, "REQUEST_CREATE_RESERVATION", func() any { return new(ResvDesc) })
	Register(MsgCreateResvReply, "RESPONSE_CREATE_RESERVATION", func() any { return new(CreateResvReply) })
	Register(MsgUpdateResv, "REQUEST_UPDATE_RESERVATION", func() any { return new(UpdateResvRequest) })
	Register(MsgDeleteResv, "REQUEST_DELETE_RESERVATION", func() any { return new(DeleteResvRequest) })
	Register(MsgResvInfo, "REQUEST_RESERVATION_INFO", func() any { return new(ResvInfoRequest) })
	Register(MsgResvInfoReply, "RESPONSE_RESERVATION_INFO", func() any { return new(ResvInfoReply) })
}

// Reservation flags, Slurm's RESERVE_FLAG_* bits (slurm.h), as on the wire. A NO_ flag in
// an update clears its partner.
const (
	ResvMaint        uint64 = 1 << 0
	ResvNoMaint      uint64 = 1 << 1
	ResvDaily        uint64 = 1 << 2
	ResvNoDaily      uint64 = 1 << 3
	ResvWeekly       uint64 = 1 << 4
	ResvNoWeekly     uint64 = 1 << 5
	ResvIgnoreJobs   uint64 = 1 << 6
	ResvNoIgnoreJobs uint64 = 1 << 7
	ResvAnyNodes     uint64 = 1 << 8
	ResvNoAnyNodes   uint64 = 1 << 9
	ResvStatic       uint64 = 1 << 10
	ResvNoStatic     uint64 = 1 << 11
	ResvPartNodes    uint64 = 1 << 12
	ResvNoPartNodes  uint64 = 1 << 13
	ResvOverlap      uint64 = 1 << 14
	ResvSpecNodes    uint64 = 1 << 15
	ResvFirstCores   uint64 = 1 << 16
	ResvTimeFloat    uint64 = 1 << 17
	ResvReplace      uint64 = 1 << 18
	ResvAllNodes     uint64 = 1 << 19
	ResvPurgeComp    uint64 = 1 << 20
	ResvWeekday      uint64 = 1 << 21
	ResvNoWeekday    uint64 = 1 << 22
	ResvWeekend      uint64 = 1 << 23
	ResvNoWeekend    uint64 = 1 << 24
	ResvFlex         uint64 = 1 << 25
	ResvNoFlex       uint64 = 1 << 26
	ResvDurPlus      uint64 = 1 << 27
	ResvDurMinus     uint64 = 1 << 28
	ResvNoHoldJobs   uint64 = 1 << 29
	ResvReplaceDown  uint64 = 1 << 30
	ResvNoPurgeComp  uint64 = 1 << 31
	ResvMagnetic     uint64 = 1 << 32
	ResvNoMagnetic   uint64 = 1 << 33
	ResvSkip         uint64 = 1 << 34
	ResvHourly       uint64 = 1 << 35
	ResvNoHourly     uint64 = 1 << 36
)

// ResvDesc is a reservation as scontrol create or update asks for it (Slurm's
// resv_desc_msg_t). Unset fields: "" for strings, 0 for times (scontrol sends 1 for a time
// given as 0, which both Slurm and Orbit refuse), NoVal for Duration, MaxStartDelay,
// PurgeCompTime and Watts, NoVal64 for Flags. Users and Accounts are as given; in an update
// each name may carry a leading + or - (scontrol turns Users+=a,b into "+a,+b"), adding to or
// removing from the list rather than replacing it. Flags holds the bits asked for: in an
// update, a NO_ bit clears its partner. NodeCnt is the sum of the counts given. scontrol
// turns TRES= into the fields it names. Features, Licenses, BurstBuffer, CoreCnt, Groups and
// Watts are carried so the controller can refuse them by name.
type ResvDesc struct {
	Name          string `codec:"name"`
	StartTime     int64  `codec:"start_time"`
	EndTime       int64  `codec:"end_time"`
	Duration      uint32 `codec:"duration"` // minutes; Infinite = none
	Flags         uint64 `codec:"flags"`
	PurgeCompTime uint32 `codec:"purge_comp_time"` // seconds (Flags=PURGE_COMP=T)
	MaxStartDelay uint32 `codec:"max_start_delay"` // seconds
	NodeList      string `codec:"node_list"`       // a hostlist, or ALL
	NodeCnt       uint32 `codec:"node_cnt"`        // 0 = not given
	Partition     string `codec:"partition"`
	Users         string `codec:"users"`
	Groups        string `codec:"groups"`
	Accounts      string `codec:"accounts"`
	Features      string `codec:"features"`
	Licenses      string `codec:"licenses"`
	BurstBuffer   string `codec:"burst_buffer"`
	CoreCnt       string `codec:"core_cnt"`
	Watts         uint32 `codec:"watts"` // NoVal = not given
}

// UpdateResvRequest is scontrol update reservation's request: a ResvDesc naming the
// reservation and what changes.
type UpdateResvRequest ResvDesc

// CreateResvReply names the reservation created (generated as USER_N when not given).
type CreateResvReply struct {
	Name string `codec:"name"`
}

// DeleteResvRequest names the reservation to delete.
type DeleteResvRequest struct {
	Name string `codec:"name"`
}

// ResvInfoRequest asks for every reservation.
type ResvInfoRequest struct{}

// ResvInfoReply is every reservation, in creation order, as of Now.
type ResvInfoReply struct {
	Now          int64      `codec:"now"`
	Reservations []ResvInfo `codec:"reservations"`
}

// ResvInfo is one reservation as scontrol show reservation and sinfo -T print it (Slurm's
// reserve_info_t). Nodes is a ranged hostlist; Users and Accounts are comma lists as
// stored (a leading - on each name for a reservation that excludes them). Whether it is
// ACTIVE the command decides on its own clock, as Slurm's does.
type ResvInfo struct {
	Name          string `codec:"name"`
	StartTime     int64  `codec:"start_time"`
	EndTime       int64  `codec:"end_time"`
	Nodes         string `codec:"nodes"`
	NodeCnt       uint32 `codec:"node_cnt"`
	CoreCnt       uint32 `codec:"core_cnt"`
	Features      string `codec:"features"`
	Partition     string `codec:"partition"`
	Flags         uint64 `codec:"flags"`
	PurgeCompTime uint32 `codec:"purge_comp_time"`
	TRES          string `codec:"tres"` // e.g. cpu=128
	Users         string `codec:"users"`
	Groups        string `codec:"groups"`
	Accounts      string `codec:"accounts"`
	Licenses      string `codec:"licenses"`
	BurstBuffer   string `codec:"burst_buffer"`
	Watts         uint32 `codec:"watts"`           // NoVal = n/a
	MaxStartDelay uint32 `codec:"max_start_delay"` // seconds, 0 = (null)
}
