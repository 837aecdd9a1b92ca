package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

// PickerRows is how many recent sessions the picker offers.
const PickerRows = 20

// PickSession shows the recent sessions full-screen (title, age, model, turns) and returns the
// one chosen with Enter, or "" when the person left with Esc, Ctrl-C or q.
func PickSession(ctx context.Context, in io.Reader, out io.Writer, noColor bool, sessions []messages.SessionInfo, now time.Time) (string, error) {
	if len(sessions) > PickerRows {
		sessions = sessions[:PickerRows]
	}
	m := &picker{sessions: sessions, now: now}
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out)}
	if noColor {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	if _, err := tea.NewProgram(m, opts...).Run(); err != nil && !errors.Is(err, tea.ErrInterrupted) {
		return "", err
	}
	return m.chosen, nil
}

// picker is the Bubble Tea model of the session picker.
type picker struct {
	sessions []messages.SessionInfo
	now      time.Time
	cursor   int
	chosen   string
}

func (p *picker) Init() tea.Cmd { return nil }

func (p *picker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	switch k.String() {
	case "up", "k", "shift+tab":
		p.cursor = max(0, p.cursor-1)
	case "down", "j", "tab":
		p.cursor = min(len(p.sessions)-1, p.cursor+1)
	case "enter":
		p.chosen = p.sessions[p.cursor].ID
		return p, tea.Quit
	case "esc", "ctrl+c", "q":
		return p, tea.Quit
	}
	return p, nil
}

func (p *picker) View() tea.View {
	var b strings.Builder
	b.WriteString("Resume a session (↑/↓ to move, Enter to open, Esc to leave)\n\n")
	for i, s := range p.sessions {
		mark := "  "
		if i == p.cursor {
			mark = "▸ "
		}
		fmt.Fprintf(&b, "%s%-48s %8s  %-28s %3d turns\n", mark, textfmt.ClipRunes(SessionTitle(s), 48),
			Age(p.now.Sub(s.Updated)), textfmt.ClipRunes(s.Model, 28), s.Turns)
	}
	return tea.NewView(b.String())
}

// SessionTitle is a session's first line of task, or its id when it has none.
func SessionTitle(s messages.SessionInfo) string {
	title, _, _ := strings.Cut(strings.TrimSpace(s.Task), "\n")
	if title == "" {
		return "(no task) " + s.ID
	}
	return title
}

// Age says how long ago, the way a list of recent things does: 42s, 5m, 3h, 2d.
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", max(0, int(d/time.Second)))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
}
