package wire

// Licenses: what scontrol show licenses asks of slurmctld (Slurm's REQUEST_LICENSE_INFO).

func init() {
	Register(MsgLicenseInfo, "REQUEST_LICENSE_INFO", func() any { return new(LicenseInfoRequest) })
	Register(MsgLicenseInfoReply, "RESPONSE_LICENSE_INFO", func() any { return new(LicenseInfoReply) })
}

// LicenseInfoRequest asks for every configured license.
type LicenseInfoRequest struct{}

// LicenseInfoReply lists the configured licenses by name, with how many running jobs hold.
type LicenseInfoReply struct {
	Licenses []LicenseInfo `codec:"licenses"`
}

// LicenseInfo is one license (Slurm's slurm_license_info_t). Reserved counts what
// reservations hold (none in Orbit yet); Remote is a license served by slurmdbd (none).
type LicenseInfo struct {
	Name     string `codec:"name"`
	Total    uint32 `codec:"total"`
	Used     uint32 `codec:"in_use"`
	Reserved uint32 `codec:"reserved"`
	Remote   bool   `codec:"remote"`
}
