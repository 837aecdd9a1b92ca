package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/messages"
)

func (m *Main) chatCommand() *cobra.Command {
	var f commonFlags
	c := &cobra.Command{
		Use:   "chat",
		Short: "Talk with the agent: a terminal UI on a terminal, a line REPL on pipes (/help for commands, /exit to leave; Ctrl-C cancels a turn)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return m.chat(c.Context(), &f)
		},
	}
	f.register(c)
	f.registerHorizon(c, "start with this objective (/goal shows, pauses, resumes or clears it)")
	return c
}

// turnEnd reports that the session is waiting for input again, or has finished.
type turnEnd struct {
	finished *messages.SessionFinishedData
}

// startChat resolves the settings, checks them into an interactive session's start and connects
// to the project's Node: what the line chat and the TUI share before they talk to the session.
// The caller closes the link (l.close(m, id)) and starts the session once it has subscribed.
func (m *Main) startChat(f *commonFlags) (s *settings, l *link, start *messages.StartSession, err error) {
	if s, err = m.resolve(f); err != nil {
		return nil, nil, nil, err
	}
	start = &messages.StartSession{ID: newSessionID(), Interactive: true}
	if err = m.sessionStart(s, nil, f, start); err != nil {
		return nil, nil, nil, err
	}
	if l, err = m.connect(s); err != nil {
		return nil, nil, nil, err
	}
	return s, l, start, nil
}

func (m *Main) chat(ctx context.Context, f *commonFlags) error {
	if m.onTerminal() {
		return m.tuiChat(ctx, f) // the line REPL below is for pipes and TERM=dumb
	}
	s, l, start, err := m.startChat(f)
	if err != nil {
		return err
	}
	id := start.ID
	defer l.close(m, id)
	out := newPrinter(m.Stdout, false)
	ends := make(chan turnEnd, 4)
	asks := make(chan *messages.ApprovalRequestedData, 16)
	resolved := make(chan string, 16) // call ids whose approval was settled (here or elsewhere)
	asked := map[string]bool{}        // touched only by the subscription's callback goroutine
	sub, err := l.client.SubscribeRaw(messages.SessionEventsSubject(l.client.NS, id), func(data []byte) {
		if ask := approvalRequest(data); ask != nil {
			asked[ask.CallID] = true
			asks <- ask
			return
		}
		if call, ok := approvalSettled(data); ok && asked[call] {
			delete(asked, call)
			select {
			case resolved <- call:
			default: // nobody is asking right now: a settled call nobody waits for
			}
		}
		if fin := out.event(data); fin != nil {
			ends <- turnEnd{finished: fin}
			return
		}
		if stop, ok := turnStop(data); ok && (stop == "end" || stop == "cancelled") {
			ends <- turnEnd{}
		}
	})
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	if err := l.client.StartSession(start); err != nil {
		select {
		case e := <-ends:
			if e.finished != nil { // it failed while starting, and said why (see runStarted)
				return outcome(e.finished)
			}
		default:
		}
		return usageErr("%v", err)
	}
	fmt.Fprintf(m.Stderr, "troupe chat · %s · mode %s · session %s\n/help for commands, /exit to leave\n", start.Model, s.cfg.Mode, id)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	lines := readLines(m.Stdin)
	for {
		fmt.Fprint(m.Stderr, "› ")
		line, ok, fin := m.waitLine(ctx, lines, sigs, ends)
		if fin != nil {
			// The session ended on its own between turns (e.g. a setup error at its start).
			fmt.Fprintln(m.Stderr)
			return outcome(fin)
		}
		if !ok || isExit(line) {
			fmt.Fprintln(m.Stderr)
			_ = l.client.Cancel(id, "the user left the chat")
			return nil
		}
		ack, err := l.client.Input(id, line)
		if err != nil {
			return &exitError{code: exitFailed, msg: err.Error()}
		}
		switch ack.Routed {
		case messages.RoutedExit: // the session's /exit: leave, as the local one does
			_ = l.client.Cancel(id, "the user left the chat")
			return nil
		case messages.RoutedCommand, messages.RoutedBusy:
			fmt.Fprintln(m.Stdout, strings.TrimRight(ack.Output, "\n"))
			continue
		case messages.RoutedIgnored:
			continue
		}
		if fin := m.waitTurn(ctx, l, id, turnInputs{ends: ends, asks: asks, resolved: resolved, lines: lines, sigs: sigs}); fin != nil {
			return outcome(fin)
		}
	}
}

// idleRelease is how long the prompt waits before handing idle memory back to the system: long
// enough for the end of a turn to settle, short enough that an idle chat is small.
const idleRelease = time.Second

// waitLine waits for the next line of input; ok is false at EOF, Ctrl-C or SIGTERM, and fin is
// set if the session finished meanwhile. Waiting for the human is the long idle stretch, so
// memory the process no longer uses is released then.
func (m *Main) waitLine(ctx context.Context, lines <-chan string, sigs <-chan os.Signal, ends <-chan turnEnd) (string, bool, *messages.SessionFinishedData) {
	idle := time.NewTimer(idleRelease)
	defer idle.Stop()
	for {
		select {
		case line, ok := <-lines:
			return line, ok, nil
		case e := <-ends:
			if e.finished != nil {
				return "", false, e.finished
			}
		case <-sigs:
			return "", false, nil
		case <-ctx.Done():
			return "", false, nil
		case <-idle.C:
			releaseIdleMemory()
		}
	}
}

// turnInputs is what a chat turn waits on.
type turnInputs struct {
	ends     <-chan turnEnd
	asks     <-chan *messages.ApprovalRequestedData
	resolved <-chan string
	lines    <-chan string
	sigs     <-chan os.Signal
}

// waitTurn waits until the session is idle again, answering its approval requests from the
// keyboard; Ctrl-C cancels the running turn.
func (m *Main) waitTurn(ctx context.Context, l *link, id string, in turnInputs) *messages.SessionFinishedData {
	for {
		select {
		case e := <-in.ends:
			if e.finished != nil || sessionIdle(l, id) {
				return e.finished
			}
			// The final answer was refused (a goal still open, a failing check): the session
			// works on, and this turn goes on with it.
		case ask := <-in.asks:
			m.askUser(l, id, ask, in)
		case <-in.sigs:
			fmt.Fprintln(m.Stderr, "\n(cancelling the turn)")
			_ = l.client.Cancel(id, "cancelled by the user (Ctrl-C)")
		case <-ctx.Done():
			_ = l.client.Cancel(id, "troupe received SIGTERM")
			return &messages.SessionFinishedData{Status: messages.StatusInterrupted}
		}
	}
}

// sessionIdle reports whether the session waits for input. A turn's end is not enough: the
// definition of done may refuse the final answer and send the model back to work. Status is
// answered in order after the message that ended the turn, so the phase it reports is the one
// the session took after deciding.
func sessionIdle(l *link, id string) bool {
	st, err := l.client.Status(id)
	return err != nil || st.Phase == messages.PhaseIdle
}

// askUser shows an approval request and sends the answer typed at the prompt, unless someone
// else (troupe approve, another client) answers it first.
func (m *Main) askUser(l *link, id string, ask *messages.ApprovalRequestedData, in turnInputs) {
	fmt.Fprint(m.Stdout, formatApproval(ask))
	for {
		fmt.Fprint(m.Stderr, "allow? [y]es / [n]o / [a]lways this session: ")
		var line string
		select {
		case typed, ok := <-in.lines:
			line = typed
			if !ok {
				line = "n"
			}
		case call := <-in.resolved:
			if call == ask.CallID {
				fmt.Fprintln(m.Stdout, "(answered elsewhere)")
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
		if err := l.client.Approve(id, ask.CallID, answer, "chat"); err != nil {
			fmt.Fprintf(m.Stdout, "(%v)\n", err) // answered elsewhere first, or the turn ended
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

func isExit(line string) bool {
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
