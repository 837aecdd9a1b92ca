package actors

import (
	"context"
	"log/slog"
)

// warnOnly passes warnings and errors through: protoactor logs every spawn at info.
type warnOnly struct{ h slog.Handler }

func (w warnOnly) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && w.h.Enabled(ctx, l)
}
func (w warnOnly) Handle(ctx context.Context, r slog.Record) error { return w.h.Handle(ctx, r) }
func (w warnOnly) WithAttrs(as []slog.Attr) slog.Handler           { return warnOnly{w.h.WithAttrs(as)} }
func (w warnOnly) WithGroup(name string) slog.Handler              { return warnOnly{w.h.WithGroup(name)} }
