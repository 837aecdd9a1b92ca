package actors

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
)

// A connection's asynchronous errors go to the log, never raw to stderr (nats.go's default
// prints "io: read/write on closed pipe on connection [6]" over the terminal): a closed pipe at
// shutdown at debug level, anything else as a warning; with no logger they are dropped.
func TestBusAsyncErrorsGoToTheLog(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts := nats.GetDefaultOptions()
	if err := asyncErrors(logger)(&opts); err != nil {
		t.Fatal(err)
	}
	if opts.AsyncErrorCB == nil {
		t.Fatal("no error handler set: nats.go would print to stderr")
	}
	opts.AsyncErrorCB(nil, nil, io.ErrClosedPipe)
	opts.AsyncErrorCB(nil, &nats.Subscription{Subject: "troupe.x"}, errors.New("nats: slow consumer, messages dropped"))
	out := buf.String()
	if !strings.Contains(out, "level=DEBUG") || !strings.Contains(out, "closed pipe") {
		t.Errorf("closed pipe not logged at debug: %s", out)
	}
	if !strings.Contains(out, "level=WARN") || !strings.Contains(out, "slow consumer") || !strings.Contains(out, "subject=troupe.x") {
		t.Errorf("slow consumer not logged as a warning with its subject: %s", out)
	}
	quiet := nats.GetDefaultOptions()
	_ = asyncErrors(nil)(&quiet)
	quiet.AsyncErrorCB(nil, nil, io.ErrClosedPipe) // must not panic or print
}
