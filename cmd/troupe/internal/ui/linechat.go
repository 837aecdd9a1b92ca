package ui

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/troupe-dev/troupe/messages"
)

// LineChat is troupe chat on pipes and TERM=dumb: a line REPL on the session. Events arrive
// through Event on the subscription's goroutine and reach Run through channels.
type LineChat struct {
	session  Session
	id       string
	in       io.Reader
	out, err io.Writer // the conversation; the prompt and notes
	printer  *Printer

	firstTurn bool
	ends      chan turnEnd
	asks      chan *messages.ApprovalRequestedData
	resolved  chan string     // call ids whose approval was settled (here or elsewhere)
	asked     map[string]bool // touched only by Event
}

// LineChatOptions is what the line chat talks to and through.
type LineChatOptions struct {
	Session  Session
	ID       string // the chat's session
	In       io.Reader
	Out, Err io.Writer
	// FirstTurn says the session starts with a task (troupe "prompt"): Run waits for that turn
	// before it reads a line, as it does after a line it sent.
	FirstTurn bool
}

// NewLineChat returns a line chat; subscribe its Event to the session's events before the
// session starts.
func NewLineChat(o LineChatOptions) *LineChat {
	return &LineChat{session: o.Session, id: o.ID, in: o.In, out: o.Out, err: o.Err, printer: NewPrinter(o.Out, false),
		firstTurn: o.FirstTurn, ends: make(chan turnEnd, 4), asks: make(chan *messages.ApprovalRequestedData, 16),
		resolved: make(chan string, 16), asked: map[string]bool{}}
}

// turnEnd reports that the session is waiting for input again, or has finished.
type turnEnd struct {
	finished *messages.SessionFinishedData
}

// Event takes one raw envelope of the session's events.
func (c *LineChat) Event(data []byte) {
	if ask := approvalRequest(data); ask != nil {
		c.asked[ask.CallID] = true
		c.asks <- ask
		return
	}
	if call, ok := approvalSettled(data); ok && c.asked[call] {
		delete(c.asked, call)
		select {
		case c.resolved <- call:
		default: // nobody is asking right now: a settled call nobody waits for
		}
	}
	if fin := c.printer.Event(data); fin != nil {
		c.ends <- turnEnd{finished: fin}
		return
	}
	if stop, ok := turnStop(data); ok && (stop == "end" || stop == "cancelled") {
		c.ends <- turnEnd{}
	}
	if userCallFinished(data) { // the chat's own call (!command, @path): waitTurn asks if idle
		select {
		case c.ends <- turnEnd{}:
		default: // ends is full of ends already: waitTurn asks anyway
		}
	}
}

// FinishedEarly is the session's outcome if it already finished (a session that failed while
// starting says why before the start request gives up).
func (c *LineChat) FinishedEarly() *messages.SessionFinishedData {
	select {
	case e := <-c.ends:
		return e.finished
	default:
		return nil
	}
}

// Run reads lines and sends them to the session until the person leaves (EOF, Ctrl-C at the
// prompt, /exit), ctx ends, or the session finishes. It returns the outcome if the session
// finished, nil if the person left (the session is cancelled), and the error of a line the
// session could not take. sigs delivers Ctrl-C: at the prompt it leaves, in a turn it
// cancels the turn.
func (c *LineChat) Run(ctx context.Context, sigs <-chan os.Signal) (*messages.SessionFinishedData, error) {
	lines := readLines(c.in)
	if st, err := c.session.Status(c.id); err == nil {
		for _, w := range st.Warnings { // once, at the start
			fmt.Fprintf(c.err, "warning: %s\n", w)
		}
	}
	if c.firstTurn {
		if fin := c.waitTurn(ctx, lines, sigs); fin != nil {
			return fin, nil
		}
	}
	for {
		fmt.Fprint(c.err, "› ")
		line, ok, fin := c.waitLine(ctx, lines, sigs)
		if fin != nil {
			// The session ended on its own between turns (e.g. a setup error at its start).
			fmt.Fprintln(c.err)
			return fin, nil
		}
		if !ok || IsExit(line) {
			fmt.Fprintln(c.err)
			_ = c.session.Cancel(c.id, "the user left the chat")
			return nil, nil
		}
		ack, err := c.session.Input(c.id, line)
		if err != nil {
			return nil, err
		}
		switch ack.Routed {
		case messages.RoutedExit: // the session's /exit: leave, as the local one does
			_ = c.session.Cancel(c.id, "the user left the chat")
			return nil, nil
		case messages.RoutedCommand, messages.RoutedBusy:
			fmt.Fprintln(c.out, strings.TrimRight(ack.Output, "\n"))
			continue
		case messages.RoutedIgnored:
			continue
		}
		if fin := c.waitTurn(ctx, lines, sigs); fin != nil {
			return fin, nil
		}
	}
}

// waitLine waits for the next line of input; ok is false at EOF, Ctrl-C or SIGTERM, and fin is
// set if the session finished meanwhile.
func (c *LineChat) waitLine(ctx context.Context, lines <-chan string, sigs <-chan os.Signal) (string, bool, *messages.SessionFinishedData) {
	for {
		select {
		case line, ok := <-lines:
			return line, ok, nil
		case e := <-c.ends:
			if e.finished != nil {
				return "", false, e.finished
			}
		case <-sigs:
			return "", false, nil
		case <-ctx.Done():
			return "", false, nil
		}
	}
}

// waitTurn waits until the session is idle again, answering its approval requests from the
// keyboard; Ctrl-C cancels the running turn.
func (c *LineChat) waitTurn(ctx context.Context, lines <-chan string, sigs <-chan os.Signal) *messages.SessionFinishedData {
	for {
		select {
		case e := <-c.ends:
			if e.finished != nil || c.idle() {
				return e.finished
			}
			// The final answer was refused (a goal still open, a failing check): the session
			// works on, and this turn goes on with it.
		case ask := <-c.asks:
			c.askUser(ask, lines)
		case <-sigs:
			fmt.Fprintln(c.err, "\n(cancelling the turn)")
			_ = c.session.Cancel(c.id, "cancelled by the user (Ctrl-C)")
		case <-ctx.Done():
			_ = c.session.Cancel(c.id, "troupe received SIGTERM")
			return &messages.SessionFinishedData{Status: messages.StatusInterrupted}
		}
	}
}

// idle reports whether the session waits for input. A turn's end is not enough: the
// definition of done may refuse the final answer and send the model back to work. Status is
// answered in order after the message that ended the turn, so the phase it reports is the one
// the session took after deciding.
func (c *LineChat) idle() bool {
	st, err := c.session.Status(c.id)
	return err != nil || st.Phase == messages.PhaseIdle
}

// askUser shows an approval request and sends the answer typed at the prompt, unless someone
// else (troupe approve, another client) answers it first.
func (c *LineChat) askUser(ask *messages.ApprovalRequestedData, lines <-chan string) {
	fmt.Fprint(c.out, formatApproval(ask))
	for {
		fmt.Fprint(c.err, "allow? [y]es / [n]o / [a]lways this session: ")
		var line string
		select {
		case typed, ok := <-lines:
			line = typed
			if !ok {
				line = "n"
			}
		case call := <-c.resolved:
			if call == ask.CallID {
				fmt.Fprintln(c.out, "(answered elsewhere)")
				return
			}
			continue
		}
		var answer messages.Answer
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes", "allow":
			answer = messages.AnswerAllow
		case "n", "no", "deny":
			answer = messages.AnswerDeny
		case "a", "always", "allow-session":
			answer = messages.AnswerAllowSession
		default:
			continue
		}
		if err := c.session.Approve(c.id, ask.CallID, answer, "chat"); err != nil {
			fmt.Fprintf(c.out, "(%v)\n", err) // answered elsewhere first, or the turn ended
		}
		return
	}
}

// formatApproval renders an approval request for a person: what, where, and a preview.
func formatApproval(a *messages.ApprovalRequestedData) string {
	var b strings.Builder
	s := a.Summary
	fmt.Fprintf(&b, "\n? %s wants to run %s", a.CallID, s.Tool)
	if s.Operation != "" {
		fmt.Fprintf(&b, " (%s)", s.Operation)
	}
	if s.Path != "" {
		fmt.Fprintf(&b, " %s", s.Path)
	}
	if s.Size > 0 {
		fmt.Fprintf(&b, ", %d bytes", s.Size)
	}
	b.WriteString("\n")
	if s.Command != "" {
		fmt.Fprintf(&b, "  $ %s\n", s.Command)
	}
	if s.Diff != "" {
		b.WriteString(indentBlock(s.Diff, "  "))
	}
	if a.Reason != "" {
		fmt.Fprintf(&b, "  (%s)\n", a.Reason)
	}
	return b.String()
}

func indentBlock(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// approvalRequest decodes a tool.approval_requested envelope, or returns nil.
func approvalRequest(data []byte) *messages.ApprovalRequestedData {
	if !strings.Contains(string(data), `"tool.approval_requested"`) {
		return nil
	}
	var env messages.Envelope
	if json.Unmarshal(data, &env) != nil || env.Type != messages.EventToolApproval {
		return nil
	}
	v, err := env.DecodeData()
	if err != nil {
		return nil
	}
	return v.(*messages.ApprovalRequestedData)
}

// IsExit reports whether line asks to leave the chat.
func IsExit(line string) bool {
	switch strings.TrimSpace(line) {
	case "/exit", "/quit", "/q":
		return true
	}
	return false
}

// readLines feeds stdin lines to a channel; it ends (closing the channel) at EOF. The goroutine
// is owned by the process: stdin cannot be interrupted, and it dies with it.
func readLines(r interface{ Read([]byte) (int, error) }) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

// turnStop returns the stop reason of a turn.finished envelope.
func turnStop(data []byte) (string, bool) {
	if !strings.Contains(string(data), `"turn.finished"`) {
		return "", false
	}
	var env messages.Envelope
	if json.Unmarshal(data, &env) != nil || env.Type != messages.EventTurnFinished {
		return "", false
	}
	v, err := env.DecodeData()
	if err != nil {
		return "", false
	}
	return string(v.(*messages.TurnFinishedData).Stop), true
}

// approvalSettled returns the call id of a tool.decision envelope that settles an approval
// (allowed or denied, not the "asked" that opens one).
func approvalSettled(data []byte) (string, bool) {
	if !strings.Contains(string(data), `"tool.decision"`) && !strings.Contains(string(data), `"tool.rejected"`) {
		return "", false
	}
	var env messages.Envelope
	if json.Unmarshal(data, &env) != nil {
		return "", false
	}
	v, err := env.DecodeData()
	if err != nil {
		return "", false
	}
	d, ok := v.(*messages.DecisionData)
	if !ok || d.Decision == messages.DecisionAsked {
		return "", false
	}
	return d.CallID, true
}

// userCallFinished reports whether data is the tool.finished of a call the user made.
func userCallFinished(data []byte) bool {
	return strings.Contains(string(data), `"tool.finished"`) && strings.Contains(string(data), `"call_id":"`+messages.UserCallPrefix)
}
