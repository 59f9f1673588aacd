package conf

import (
	"strconv"
	"strings"
)

// OrbitConfig holds the typed values of the Orbit keys (see OrbitKeys and ORBIT_KEYS.md).
type OrbitConfig struct {
	MediateMachines      []string // expanded MediateMachine hostlist; empty = no satellites
	MediateWidth         uint16   // 2 × TreeWidth when not set
	FailurePredictorType string
	RuntimePredictor     RuntimePredictorConfig
	PowerCorridorLower   uint64 // watts; both 0 = no corridor
	PowerCorridorUpper   uint64
	PowerIdleWatts       uint32
	DeadlineAdmission    bool
	TopologyAllocator    string // linear, hilbert, manhattan or leak
	Controllers          []ControllerHost
	StoreEndpoints       []string // nil = embedded store
}

// RuntimePredictorConfig is RuntimePredictorType and RuntimePredictorParameters.
type RuntimePredictorConfig struct {
	Type            string
	Clusters        int
	Elbow           bool
	RetrainHours    int
	TrainingJobs    int
	Alpha           float64
	AEAThreshold    float64
	ParametersGiven string
}

func (l *loader) orbit(c *Config) {
	o := &c.Orbit
	if v, ok := l.raw["MediateMachine"]; ok {
		if names, good := l.expand(position{v.File, v.Line}, "MediateMachine", v.Value); good {
			o.MediateMachines = names
		}
	}
	o.MediateWidth = 2 * c.TreeWidth
	if c.TreeWidth > 0x7fff {
		o.MediateWidth = 0xffff
	}
	if c.IsSet("MediateWidth") {
		o.MediateWidth = uint16(c.uint("MediateWidth", 0))
		if o.MediateWidth <= c.TreeWidth {
			l.errorf("MediateWidth", "MediateWidth=%d must be greater than TreeWidth=%d", o.MediateWidth, c.TreeWidth)
		}
	}
	o.FailurePredictorType = c.str("FailurePredictorType")
	switch o.FailurePredictorType {
	case "failure_predictor/recent", "failure_predictor/none":
	default:
		l.errorf("FailurePredictorType", "Invalid FailurePredictorType %s (expected failure_predictor/recent or failure_predictor/none)", o.FailurePredictorType)
	}

	rp := &o.RuntimePredictor
	*rp = RuntimePredictorConfig{Type: c.str("RuntimePredictorType"), Clusters: DefaultPredictorClusters,
		RetrainHours: DefaultPredictorRetrainHours, TrainingJobs: DefaultPredictorTrainingJobs,
		Alpha: DefaultPredictorAlpha, AEAThreshold: DefaultPredictorAEAThreshold,
		ParametersGiven: c.str("RuntimePredictorParameters")}
	switch rp.Type {
	case "runtime_predictor/none", "runtime_predictor/kmeans_svr":
	default:
		l.errorf("RuntimePredictorType", "Invalid RuntimePredictorType %s (expected runtime_predictor/none or runtime_predictor/kmeans_svr)", rp.Type)
	}
	if rp.ParametersGiven != "" {
		l.predictorParams(rp)
	}

	if v, ok := l.raw["PowerCorridor"]; ok {
		lo, hi, found := strings.Cut(v.Value, ",")
		a, e1 := strconv.ParseUint(lo, 10, 64)
		b, e2 := strconv.ParseUint(hi, 10, 64)
		switch {
		case !found || e1 != nil || e2 != nil:
			l.errorf("PowerCorridor", "Invalid PowerCorridor %s (expected lower,upper in watts)", v.Value)
		case a >= b:
			l.errorf("PowerCorridor", "Invalid PowerCorridor %s: lower (%d) must be below upper (%d)", v.Value, a, b)
		default:
			o.PowerCorridorLower, o.PowerCorridorUpper = a, b
		}
	}
	o.PowerIdleWatts = uint32(c.uint("PowerIdleWatts", 0))
	o.DeadlineAdmission = c.boolean("DeadlineAdmission")
	o.TopologyAllocator = strings.ToLower(c.str("TopologyAllocator"))
	switch o.TopologyAllocator {
	case "linear", "hilbert", "manhattan", "leak":
	default:
		l.errorf("TopologyAllocator", "Invalid TopologyAllocator %s (expected linear, hilbert, manhattan or leak)", o.TopologyAllocator)
	}
	if v, ok := l.raw["OrbitControllers"]; ok {
		for _, e := range strings.Split(v.Value, ",") {
			name, addr := e, e
			if i := strings.IndexByte(e, '('); i >= 0 && strings.HasSuffix(e, ")") {
				name, addr = e[:i], e[i+1:len(e)-1]
			}
			if name == "" || addr == "" || strings.ContainsAny(name, "()") || strings.ContainsAny(addr, "()") {
				l.errorf("OrbitControllers", "Bad value \"%s\" for OrbitControllers", e)
				continue
			}
			o.Controllers = append(o.Controllers, ControllerHost{Name: name, Addr: addr})
		}
	}
	if s := c.str("OrbitStore"); s != "embedded" {
		for _, e := range strings.Split(s, ",") {
			if !strings.HasPrefix(e, "http://") && !strings.HasPrefix(e, "https://") {
				l.errorf("OrbitStore", "Invalid OrbitStore endpoint %s (expected embedded or http(s)://host:port,...)", e)
				continue
			}
			o.StoreEndpoints = append(o.StoreEndpoints, e)
		}
	}
}

func (l *loader) predictorParams(rp *RuntimePredictorConfig) {
	for _, opt := range strings.Split(rp.ParametersGiven, ",") {
		name, val, hasVal := strings.Cut(opt, "=")
		bad := func() {
			l.errorf("RuntimePredictorParameters", "Invalid RuntimePredictorParameters option %s (known: %s)", opt, runtimePredictorParametersUsage)
		}
		posInt := func() (int, bool) {
			n, err := strconv.Atoi(val)
			if !hasVal || err != nil || n <= 0 {
				bad()
				return 0, false
			}
			return n, true
		}
		switch strings.ToLower(name) {
		case "clusters":
			if n, ok := posInt(); ok {
				rp.Clusters = n
			}
		case "elbow":
			if hasVal {
				bad()
			}
			rp.Elbow = true
		case "retrain_interval":
			if n, ok := posInt(); ok {
				rp.RetrainHours = n
			}
		case "training_jobs":
			if n, ok := posInt(); ok {
				rp.TrainingJobs = n
			}
		case "alpha":
			f, err := strconv.ParseFloat(val, 64)
			if !hasVal || err != nil || f < 1 {
				bad()
				continue
			}
			rp.Alpha = f
		case "aea_threshold":
			f, err := strconv.ParseFloat(val, 64)
			if !hasVal || err != nil || f <= 0 || f > 1 {
				bad()
				continue
			}
			rp.AEAThreshold = f
		default:
			bad()
		}
	}
}
