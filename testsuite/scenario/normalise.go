package scenario

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Env is what Normalise must know about the cluster a run used.
type Env struct {
	WorkDir string // the directory the commands ran in (jobs' default output directory)
	User    string // the user who ran the scenario
	UID     string
	Group   string
	GID     string
}

// The reference was recorded as root; a run by another user is compared as if by root.
const refUser, refUID, refGroup, refGID = "root", "0", "root", "0"

var (
	// Job ids in the places commands print them.
	idInText = regexp.MustCompile(`(JobId=|ArrayJobId=|[Jj]ob id |[Jj]ob |after(?:ok|any|notok|corr|burstbuffer)?:|slurm-)(\d+)\b|(JobId=|[Jj]ob |slurm-)(\d+)_`)
	// squeue and sbatch --parsable print the id first on a line.
	idFirst   = regexp.MustCompile(`(?m)^( *)(\d+)(_|;| |$)`)
	timestamp = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d`)
	runTime   = regexp.MustCompile(`\b(RunTime)=\S+`)
	priority  = regexp.MustCompile(`\bPriority=[1-9]\d*`)
	allocSid  = regexp.MustCompile(`AllocNode:Sid=([^:\s]+):\d+`)
	nodeLive  = regexp.MustCompile(`\b(CPULoad|FreeMem)=\S+`)
	nodeOS    = regexp.MustCompile(`(?m)\bOS=.*?( {2,}|$)`)
	longDate  = regexp.MustCompile(`(?m)^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d \d{4}$`)
	srunQueue = regexp.MustCompile(`(?m)^srun: job \d+ (queued and waiting for resources|has been allocated resources)\n`)
)

// Normaliser maps each cluster's job ids to tokens by order of first appearance, so it lives
// for one whole run (one cluster's transcript, in capture order).
type Normaliser struct {
	env Env
	ids map[string]string
}

// NewNormaliser returns the normaliser for one run on a cluster described by env.
func NewNormaliser(env Env) *Normaliser { return &Normaliser{env: env, ids: map[string]string{}} }

// Normalise rewrites one capture of command cmd (sbatch, squeue, ...) so that a run on the
// reference and a run on Orbit print the same bytes when the commands behave the same. It
// removes only what must differ:
//   - job ids: each cluster numbers jobs from its own history (and the reference is shared),
//     so ids become tokens (A, B, ..., Z, BA, ...) right-aligned with '_' to the id's own
//     width, keeping columns aligned: the scenario's submitted jobs first, in submission
//     order (Seed), then any other id (array tasks' own ids) by order of first appearance.
//     Numbers above MaxJobId's default (67043328), which no job can have, stay. Ids are
//     recognised where commands print them: JobId=, ArrayJobId=, "job N", "Job N",
//     "job id N", afterok:N (and the other dependency types), slurm-N (default output file
//     names), and for squeue and sbatch the first field of a line;
//   - times: ISO timestamps become YYYY-MM-DDTHH:MM:SS, squeue --long's date line
//     "Day Mon DD HH:MM:SS YYYY", and RunTime= its field name only
//     (the runs happen at different moments; the scenario's squeue formats avoid the elapsed
//     TIME column of running jobs);
//   - Priority: priority/basic counts down once per job ever submitted on the cluster, and
//     the reference is shared, so only held (0) versus not held is compared;
//   - host and session: AllocNode:Sid (sbatch's session id) becomes HOST:SID;
//   - node load: CPULoad and FreeMem are live readings of the machine, and OS= is the kernel
//     (uname) of the machine the node daemon runs on;
//   - srun's "job N queued and waiting for resources" and "job N has been allocated
//     resources" notes are dropped: whether a step's allocation waits depends on other
//     people's pending jobs on the shared reference;
//   - paths: the run's working directory becomes $WORKDIR;
//   - users: a run by someone other than root (the recording's user) prints root's name and
//     ids in its place.
func (n *Normaliser) Normalise(cmd, s string) string {
	if n.env.WorkDir != "" {
		s = strings.ReplaceAll(s, n.env.WorkDir, "$WORKDIR")
	}
	if n.env.User != "" && n.env.User != refUser {
		s = strings.ReplaceAll(s, n.env.User+"("+n.env.UID+")", refUser+"("+refUID+")")
		s = strings.ReplaceAll(s, n.env.Group+"("+n.env.GID+")", refGroup+"("+refGID+")")
		s = regexp.MustCompile(`\b`+regexp.QuoteMeta(n.env.User)+`\b`).ReplaceAllString(s, refUser)
	}
	if cmd == "srun" {
		s = srunQueue.ReplaceAllString(s, "")
	}
	s = timestamp.ReplaceAllString(s, "YYYY-MM-DDTHH:MM:SS")
	s = longDate.ReplaceAllString(s, "Day Mon DD HH:MM:SS YYYY")
	s = runTime.ReplaceAllString(s, "$1=ELAPSED")
	s = priority.ReplaceAllString(s, "Priority=P")
	s = allocSid.ReplaceAllString(s, "AllocNode:Sid=HOST:SID")
	s = nodeLive.ReplaceAllString(s, "$1=LIVE")
	s = nodeOS.ReplaceAllString(s, "OS=KERNEL$1")
	s = idInText.ReplaceAllStringFunc(s, func(m string) string {
		sub := idInText.FindStringSubmatch(m)
		if sub[1] != "" {
			return sub[1] + n.token(sub[2])
		}
		return sub[3] + n.token(sub[4]) + "_"
	})
	if cmd == "squeue" || cmd == "sbatch" {
		s = idFirst.ReplaceAllStringFunc(s, func(m string) string {
			sub := idFirst.FindStringSubmatch(m)
			return sub[1] + n.token(sub[2]) + sub[3]
		})
	}
	return s
}

// maxJobID is Slurm's default MaxJobId: larger numbers are never job ids.
const maxJobID = 67043328

// Seed gives job id the next token now, before any output mentions it.
func (n *Normaliser) Seed(id string) { n.token(id) }

// token returns the token of job id, allocating the next one on first sight.
func (n *Normaliser) token(id string) string {
	if tok, ok := n.ids[id]; ok {
		return tok
	}
	if v, err := strconv.ParseUint(id, 10, 64); err != nil || v > maxJobID {
		return id
	}
	tok := letters(len(n.ids))
	if pad := len(id) - len(tok); pad > 0 {
		tok = strings.Repeat("_", pad) + tok
	}
	n.ids[id] = tok
	return tok
}

// letters writes k (0-based) in base 26 with digits A..Z.
func letters(k int) string {
	s := ""
	for {
		s = string(rune('A'+k%26)) + s
		k /= 26
		if k == 0 {
			return s
		}
	}
}

// String lists the id mapping, for failure messages.
func (n *Normaliser) String() string { return fmt.Sprint(n.ids) }
