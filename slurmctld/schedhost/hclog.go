package schedhost

import (
	"bytes"
	"io"
	"log/slog"

	hclog "github.com/hashicorp/go-hclog"
)

// newHCLogger is the logger go-plugin gets: its own messages and every line the plugin
// writes to stderr reach the controller's log (a plugin's panic trace included).
func newHCLogger(log *slog.Logger) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{
		Name:        "sched",
		Output:      &slogWriter{log: log},
		Level:       hclog.Info,
		DisableTime: true,
	})
}

// slogWriter logs each line written to it.
type slogWriter struct {
	log *slog.Logger
}

var _ io.Writer = (*slogWriter)(nil)

func (w *slogWriter) Write(p []byte) (int, error) {
	for _, line := range bytes.Split(bytes.TrimRight(p, "\n"), []byte("\n")) {
		if len(line) > 0 {
			w.log.Info("plugin", "msg", string(line))
		}
	}
	return len(p), nil
}
