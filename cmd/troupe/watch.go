package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/messages"
)

func (m *Main) watchCommand() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "watch [session]",
		Short: "Follow every session and agent of this project live, from any terminal (Ctrl-C to stop)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			session := ""
			if len(args) == 1 {
				session = args[0]
			}
			return m.watch(c.Context(), session, asJSON)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the raw event envelopes as NDJSON")
	return c
}

// watch subscribes to the project's events on the running Node and prints them. It waits for a
// Node to appear, and for the next one when it goes away, so it can be left open.
func (m *Main) watch(ctx context.Context, session string, asJSON bool) error {
	s, err := m.resolve(nil)
	if err != nil {
		return err
	}
	ctx, stop := signalContext(ctx)
	defer stop()
	tl := &timeline{w: m.Stdout, json: asJSON, text: map[string]*strings.Builder{}}
	waiting := false
	for ctx.Err() == nil {
		info, err := actors.FindNode(s.root)
		if err != nil {
			if !waiting {
				fmt.Fprintf(m.Stderr, "troupe: waiting for a troupe node in %s (start one with troupe chat, run or serve)\n", s.root)
				waiting = true
			}
			sleepCtx(ctx, 200*time.Millisecond)
			continue
		}
		waiting = false
		nc, err := actors.Dial(info.URL, info.Token, "troupe-watch")
		if err != nil {
			sleepCtx(ctx, 200*time.Millisecond)
			continue
		}
		client := actors.NewClient(nc, info.NS, info.Node)
		subject := messages.ProjectEventsSubject(info.NS)
		if session != "" {
			subject = messages.SessionEventsSubject(info.NS, session)
		}
		sub, err := client.SubscribeRaw(subject, tl.event)
		if err != nil {
			client.Close()
			return err
		}
		if !asJSON {
			fmt.Fprintf(m.Stderr, "troupe: watching node %s (pid %d)\n", info.Node, info.PID)
		}
		for ctx.Err() == nil && client.Alive() && actors.ProcessAlive(info.PID) {
			sleepCtx(ctx, 200*time.Millisecond)
		}
		_ = sub.Unsubscribe()
		client.Close()
	}
	return nil
}

// timeline prints events as readable lines: one per event that matters, streamed text gathered
// into whole lines.
type timeline struct {
	mu   sync.Mutex
	w    io.Writer
	json bool
	text map[string]*strings.Builder // per session: streamed text not yet printed
}

func (t *timeline) event(data []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.json {
		t.w.Write(data)
		t.w.Write([]byte("\n"))
		return
	}
	var env messages.Envelope
	if json.Unmarshal(data, &env) != nil {
		return
	}
	v, err := env.DecodeData()
	if err != nil {
		return
	}
	who := fmt.Sprintf("%s %s %-6s", env.TS.Local().Format("15:04:05"), shortID(env.Session), env.Agent)
	switch d := v.(type) {
	case *messages.DeltaData:
		if env.Type == messages.EventTextDelta {
			t.gather(who, env.Session, d.Text)
		}
		return
	case *messages.TurnFinishedData:
		t.flush(who, env.Session)
		return
	}
	t.flush(who, env.Session)
	if line := describe(env.Type, v); line != "" {
		fmt.Fprintf(t.w, "%s %s\n", who, line)
	}
}

func (t *timeline) gather(who, session, text string) {
	b := t.text[session]
	if b == nil {
		b = &strings.Builder{}
		t.text[session] = b
	}
	b.WriteString(text)
	s := b.String()
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		for _, line := range strings.Split(s[:i], "\n") {
			fmt.Fprintf(t.w, "%s   %s\n", who, line)
		}
		b.Reset()
		b.WriteString(s[i+1:])
	}
}

func (t *timeline) flush(who, session string) {
	if b := t.text[session]; b != nil && b.Len() > 0 {
		fmt.Fprintf(t.w, "%s   %s\n", who, b.String())
		b.Reset()
	}
}

// describe is the one-line form of an event, or "" for events not worth a line.
func describe(typ messages.EventType, v any) string {
	switch d := v.(type) {
	case *messages.SessionStartedData:
		verb := "started"
		if d.Resumed {
			verb = "resumed"
		}
		return fmt.Sprintf("● session %s · %s · mode %s · %s", verb, d.Model, d.Mode, firstLineOf(d.Task))
	case *messages.TurnStartedData:
		return fmt.Sprintf("… turn %d: thinking", d.Turn)
	case *messages.ToolCallData:
		if typ == messages.EventToolStarted {
			return "→ " + d.Summary
		}
		return ""
	case *messages.ToolFinishedData:
		return "  " + toolOutcome(d)
	case *messages.ModelRetryData:
		return fmt.Sprintf("↻ model retry %d in %dms: %s", d.Attempt, d.DelayMS, firstLineOf(d.Reason))
	case *messages.UsageData:
		return fmt.Sprintf("  tokens %d in / %d out (session %d / %d)", d.InputTokens, d.OutputTokens, d.TotalInputTokens, d.TotalOutputTokens)
	case *messages.ErrorData:
		return "! " + d.Message
	case *messages.ApprovalRequestedData:
		return fmt.Sprintf("? approval needed for %s: %s — troupe approve %s allow|deny|allow-session",
			d.CallID, approvalLine(d.Summary), d.CallID)
	case *messages.DecisionData:
		return decisionLine(d)
	case *messages.ModeData:
		return "● mode " + d.Mode
	case *messages.SessionFinishedData:
		line := fmt.Sprintf("■ session %s after %d turns", d.Status, d.Turns)
		if d.Error != "" {
			line += ": " + d.Error
		}
		return line
	}
	return string(typ)
}

func shortID(id string) string {
	if i := strings.LastIndexByte(id, '-'); i >= 0 && len(id)-i > 1 {
		return id[i+1:]
	}
	return id
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
