package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/textcall"
)

// RunView is troupe run for a person at a terminal: while the model works, a spinner line on
// the status writer (stderr) says what happens — thinking, the tool running, the answer being
// written — with the elapsed time and the tokens so far, redrawn in place; each turn's text is
// rendered as markdown once the turn ends, and the tool lines are the Printer's. With Plain
// (the answer piped, stderr a terminal) the answer and the lines are the Printer's as they
// stream, and only the spinner is drawn; --json, or no terminal at all, keep the Printer
// alone (run.go decides). Event and Tick may be called from different goroutines.
type RunView struct {
	mu      sync.Mutex
	out     io.Writer // the answer and the tool lines
	status  io.Writer // the spinner line (nil: none, e.g. stderr is not a terminal)
	lines   *Printer  // every event but the streamed text
	md      mdStyles
	width   int
	now     func() time.Time
	started time.Time

	phase    string          // what the spinner says runs
	text     strings.Builder // this turn's answer, rendered at its end
	inTok    int             // tokens so far, from usage events
	outTok   int
	streamed int  // bytes streamed since the last usage event (an estimate of tokens to come)
	drawn    bool // a spinner line is on the terminal
	frame    int
	plain    bool // out is not a terminal: print as the Printer does, render no markdown
}

// RunViewOptions are what a RunView draws on.
type RunViewOptions struct {
	Out, Status io.Writer
	Width       int
	NoColor     bool
	Now         func() time.Time // nil: time.Now
	Plain       bool             // Out is a pipe or a file: the Printer's plain text, streamed
}

// NewRunView returns a view of one run.
func NewRunView(o RunViewOptions) *RunView {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Width <= 0 {
		o.Width = 80
	}
	return &RunView{out: o.Out, status: o.Status, lines: NewPrinter(o.Out, false), md: newMDStyles(o.NoColor),
		width: o.Width, now: o.Now, started: o.Now(), phase: phaseThinking, plain: o.Plain}
}

// Event takes one raw envelope of the session's events and returns the outcome when it is
// session.finished (the spinner is gone by then).
func (v *RunView) Event(data []byte) *messages.SessionFinishedData {
	var env messages.Envelope
	if json.Unmarshal(data, &env) != nil {
		return nil
	}
	d, err := env.DecodeData()
	if err != nil {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	switch d := d.(type) {
	case *messages.DeltaData:
		if env.Type == messages.EventTextDelta {
			v.text.WriteString(d.Text)
			v.phase = "writing the answer"
		} else {
			v.phase = "reasoning"
		}
		v.streamed += len(d.Text)
		if v.plain {
			v.clear()
			v.lines.Event(data)
		}
		return nil
	case *messages.TurnStartedData:
		v.phase = phaseThinking
	case *messages.UsageData:
		v.inTok, v.outTok, v.streamed = d.TotalInputTokens, d.TotalOutputTokens, 0
	case *messages.ToolCallData:
		v.flushText() // the text before a call ("Let me look") comes first
		if env.Type == messages.EventToolStarted {
			v.phase = d.Summary
		}
	case *messages.ToolFinishedData:
		v.phase = phaseThinking
	case *messages.ToolRepairedData:
		// A call read from the reply's text: its repair line shows the call, so the text keeps
		// only the prose before the call's markup.
		if text := v.text.String(); d.Kind == string(tools.RepairTextFormat) {
			if at, whole := textcall.HoldFrom(text); whole {
				v.text.Reset()
				v.text.WriteString(text[:at])
			}
		}
		v.flushText()
	case *messages.TurnFinishedData:
		v.flushText()
	case *messages.SessionFinishedData:
		v.flushText()
		v.clear()
		return v.lines.Event(data)
	}
	v.clear()
	v.lines.Event(data)
	v.draw()
	return nil
}

// Tick redraws the spinner: the frame turns and the clock moves.
func (v *RunView) Tick() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.frame++
	v.draw()
}

// Run ticks every 100ms until stop closes, then takes the spinner line away.
func (v *RunView) Run(stop <-chan struct{}) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			v.Tick()
		case <-stop:
			v.mu.Lock()
			v.clear()
			v.mu.Unlock()
			return
		}
	}
}

// flushText renders the turn's text as markdown, below whatever came before it.
func (v *RunView) flushText() {
	src := strings.TrimSpace(v.text.String())
	v.text.Reset()
	if src == "" || v.plain { // plain: the Printer streamed it
		return
	}
	v.clear()
	fmt.Fprintln(v.out, strings.TrimRight(renderMarkdown(src, v.width, v.md), "\n"))
}

// SpinnerLine is the status line at now: frame, what runs, elapsed, tokens.
func (v *RunView) spinnerLine() string {
	took := max(v.now().Sub(v.started), 0)
	elapsed := fmtElapsed(took)
	if took < time.Minute {
		elapsed = fmt.Sprintf("%.1fs", took.Seconds())
	}
	tokens := fmt.Sprintf("%s in / %s out tokens", fmtTokens(v.inTok), fmtTokens(v.outTok+v.streamed/4))
	line := fmt.Sprintf("%s %s… %s · %s · Ctrl-C cancels", spinnerFrames[v.frame%len(spinnerFrames)], v.phase, elapsed, tokens)
	return textfmt.ClipRunes(line, v.width-1)
}

// draw puts the spinner line on the status writer, in place of the last one.
func (v *RunView) draw() {
	if v.status == nil {
		return
	}
	fmt.Fprint(v.status, "\r\x1b[K"+v.spinnerLine())
	v.drawn = true
}

// clear takes the spinner line away before anything else is written.
func (v *RunView) clear() {
	if v.drawn {
		fmt.Fprint(v.status, "\r\x1b[K")
		v.drawn = false
	}
}

// Above is a writer for lines printed beside the view (the session id, what Ctrl-C did): each
// write takes the spinner line away first, and the next tick draws it again below.
func (v *RunView) Above(w io.Writer) io.Writer { return aboveWriter{v: v, w: w} }

type aboveWriter struct {
	v *RunView
	w io.Writer
}

func (a aboveWriter) Write(p []byte) (int, error) {
	a.v.mu.Lock()
	defer a.v.mu.Unlock()
	a.v.clear()
	return a.w.Write(p)
}
