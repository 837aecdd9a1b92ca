package store

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// badgerLogger forwards Badger's errors and warnings to slog and drops its info and debug
// chatter (compaction progress, replay counts), which would drown a chat UI's log.
type badgerLogger struct{ log *slog.Logger }

func (l badgerLogger) Errorf(format string, args ...any) {
	l.log.Log(context.Background(), slog.LevelError, badgerLine(format, args), "component", "badger")
}

func (l badgerLogger) Warningf(format string, args ...any) {
	l.log.Log(context.Background(), slog.LevelWarn, badgerLine(format, args), "component", "badger")
}

func (badgerLogger) Infof(string, ...any)  {}
func (badgerLogger) Debugf(string, ...any) {}

// badgerLine formats one Badger message; Badger ends most of them with a newline.
func badgerLine(format string, args []any) string {
	return strings.TrimRight(fmt.Sprintf(format, args...), "\n")
}
