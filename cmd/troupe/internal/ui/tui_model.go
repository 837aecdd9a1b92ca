package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/troupe-dev/troupe/messages"
)

// Messages the TUI's model receives besides keys and window sizes.
type (
	// eventMsg is one envelope from the project's events (this session's and its agents').
	eventMsg struct{ env *messages.Envelope }
	// statusMsg is the session's answer to a status query.
	statusMsg struct{ st *messages.StatusReply }
	// ackMsg is what the session did with a line sent to it.
	ackMsg struct {
		ack *messages.InputAck
		err error
	}
	// noteMsg is a line for the transcript from a command the TUI ran.
	noteMsg string
	// tickMsg moves the spinner and the elapsed times.
	tickMsg time.Time
)

// tuiConfig is what the TUI model starts with.
type tuiConfig struct {
	session     Session
	id          string // this chat's session
	model, mode string
	noColor     bool
	now         func() time.Time
	// complete is what Tab completes: commands, their arguments, @paths.
	complete Completer
}

// tuiModel is the Bubble Tea model of troupe chat on a terminal. Update only routes; the
// conversation lives in transcript, the agents in agentTree, and every call to the session is
// a tea.Cmd so Update never waits on the bus.
type tuiModel struct {
	cfg     tuiConfig
	log     *transcript
	tree    *agentTree
	input   textarea.Model
	history inputHistory
	asks    []pendingAsk // pending approvals of this session and its subagents, oldest first
	choice  int          // the dialog's selected answer
	st      styles
	md      *markdown
	drawn   map[*entry]drawnEntry // complete entries as last drawn
	picked  *entry                // the tool call Ctrl-O toggles; nil follows the newest

	width, height int
	scroll        int // lines scrolled up from the bottom of the transcript
	showTree      bool
	busy          bool      // a turn runs
	busySince     time.Time // when it started
	cancelling    bool      // this turn was cancelled (Ctrl-C or Esc); it ends when the session is idle
	leaveArmed    bool      // Ctrl-C on an empty input with nothing running: the next one leaves
	started       time.Time
	quitting      bool
	warned        bool     // the session's start warnings were shown (once)
	hint          []string // the last Tab's candidates (or why none), shown until the next key
}

func newTUIModel(cfg tuiConfig) *tuiModel {
	if cfg.now == nil {
		cfg.now = time.Now
	}
	return &tuiModel{cfg: cfg, log: newTranscript(), tree: newAgentTree(), input: newInput(cfg.noColor),
		st: newStyles(cfg.noColor), md: newMarkdown(cfg.noColor), drawn: map[*entry]drawnEntry{}, width: 80, height: 24,
		started: cfg.now()}
}

func (m *tuiModel) Init() tea.Cmd { return tea.Batch(m.statusCmd(), m.tick()) }

// Update routes each message to the method that decides what it means.
func (m *tuiModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(msg.Width, 20), max(msg.Height, 8)
		m.input.SetWidth(m.width)
		return m, nil
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	case tea.PasteMsg:
		m.input.InsertString(msg.Content)
		return m, nil
	case eventMsg:
		return m, m.onEvent(msg.env)
	case statusMsg:
		return m, m.onStatus(msg.st)
	case ackMsg:
		return m, m.onAck(msg)
	case completeMsg:
		m.onComplete(msg)
		return m, nil
	case noteMsg:
		m.log.note("%s", string(msg))
		return m, nil
	case tickMsg:
		return m, m.tick()
	}
	return m, nil
}

// onKey handles a key: Ctrl-C first, then the approval dialog, then the keys of the chat,
// then the input editor.
func (m *tuiModel) onKey(k tea.KeyPressMsg) tea.Cmd {
	m.hint = nil // a Tab's candidates show until the next key
	if k.String() == "ctrl+c" {
		return m.interrupt()
	}
	m.leaveArmed = false // only a second Ctrl-C in a row leaves
	if k.String() == "ctrl+d" && !m.busy && m.input.Value() == "" {
		return m.leave() // end of input on an empty prompt, as in a shell
	}
	if len(m.asks) > 0 {
		return m.dialogKey(k) // Esc there answers no
	}
	switch k.String() {
	case "esc":
		if m.busy {
			return m.cancelTurn("Esc")
		}
		return nil
	case "enter":
		return m.send()
	case "tab":
		return m.complete()
	case "ctrl+t":
		m.showTree = !m.showTree
		return nil
	case "ctrl+o":
		if e := m.selectedTool(); e != nil {
			e.expanded = !e.expanded
		}
		return nil
	case "alt+up":
		m.selectTool(-1)
		return nil
	case "alt+down":
		m.selectTool(+1)
		return nil
	case "pgup":
		m.scroll += m.transcriptHeight() / 2
		return nil
	case "pgdown":
		m.scroll = max(m.scroll-m.transcriptHeight()/2, 0)
		return nil
	}
	if historyKey(&m.input, &m.history, k) {
		return nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return cmd
}

// interrupt is Ctrl-C, which never throws work away: it cancels a running turn (the text
// being typed stays); with nothing running it clears the input; only a second Ctrl-C in a row
// on an empty input leaves.
func (m *tuiModel) interrupt() tea.Cmd {
	switch {
	case m.busy:
		m.leaveArmed = false
		return m.cancelTurn("Ctrl-C")
	case m.input.Value() != "":
		m.input.Reset()
		m.leaveArmed = false
		return nil
	case m.leaveArmed:
		return m.leave()
	}
	m.leaveArmed = true // the status line says the next Ctrl-C leaves
	return nil
}

// cancelTurn asks the session to cancel the running turn, once per turn; the session answers
// the cancel by going idle, which ends the turn here too.
func (m *tuiModel) cancelTurn(key string) tea.Cmd {
	if m.cancelling {
		return nil
	}
	m.cancelling = true
	m.log.note("cancelling the turn (%s)", key)
	s, id := m.cfg.session, m.cfg.id
	return func() tea.Msg {
		if err := s.Cancel(id, "cancelled by the user ("+key+")"); err != nil {
			return noteMsg("cancel: " + err.Error())
		}
		return nil
	}
}

func (m *tuiModel) leave() tea.Cmd {
	m.quitting = true
	return tea.Quit
}

// send handles Enter: /exit leaves at once (even mid-turn); every other line, commands
// included, goes to the session, which routes its own commands (onAck refreshes the status
// line after one).
func (m *tuiModel) send() tea.Cmd {
	line := m.input.Value()
	if strings.TrimSpace(line) == "" {
		return nil
	}
	m.input.Reset()
	m.history.add(line)
	m.scroll = 0
	if IsExit(line) {
		return m.leave()
	}
	m.log.addUser(line)
	s, id := m.cfg.session, m.cfg.id
	return func() tea.Msg {
		ack, err := s.Input(id, line)
		return ackMsg{ack: ack, err: err}
	}
}

func (m *tuiModel) onAck(a ackMsg) tea.Cmd {
	switch {
	case a.err != nil:
		m.log.note("error: %v", a.err)
	case a.ack.Routed == messages.RoutedModel, a.ack.Routed == messages.RoutedShell:
		if !m.busy { // the spinner speeds up at its next tick
			m.busy, m.busySince, m.cancelling, m.leaveArmed = true, m.cfg.now(), false, false
		}
		if a.ack.Routed == messages.RoutedShell {
			// A quick command may have finished (and its tool.finished asked for the status)
			// before this answer came: ask again, so the spinner does not outlive it.
			return m.statusCmd()
		}
	case a.ack.Routed == messages.RoutedExit:
		return m.leave()
	case a.ack.Routed == messages.RoutedCommand:
		m.log.note("%s", strings.TrimRight(a.ack.Output, "\n"))
		return m.statusCmd() // /mode, /model or /prompt may have changed what the status line shows
	case a.ack.Routed == messages.RoutedBusy:
		m.log.note("%s", strings.TrimRight(a.ack.Output, "\n"))
	}
	return nil
}

// onEvent applies an envelope: every one feeds the agent tree, this session's feed the
// transcript and the approval dialog.
func (m *tuiModel) onEvent(env *messages.Envelope) (cmd tea.Cmd) {
	m.tree.apply(env)
	m.tree.forget(maxAgents)
	if env.Session != m.cfg.id {
		return m.onSubagentEvent(env)
	}
	v, err := env.DecodeData()
	if err != nil {
		return nil
	}
	switch d := v.(type) {
	case *messages.SessionStartedData:
		if d.Task != "" { // troupe "prompt": the first message was not typed here
			m.log.addUser(d.Task)
		}
	case *messages.TurnStartedData:
		if !m.busy {
			m.busy, m.busySince, m.cancelling, m.leaveArmed = true, m.cfg.now(), false, false
		}
	case *messages.ApprovalRequestedData:
		m.asks = append(m.asks, pendingAsk{m.cfg.id, d})
		m.choice = 0
	case *messages.DecisionData:
		if d.Decision != messages.DecisionAsked && m.dropAsk(env.Session, d.CallID) {
			m.log.note("approval of %s answered: %s", d.CallID, d.Decision)
		}
	case *messages.ModeData:
		m.cfg.mode = string(d.Mode)
	case *messages.ConfigData:
		m.cfg.model = d.Model
	case *messages.ToolFinishedData:
		if strings.HasPrefix(d.CallID, messages.UserCallPrefix) {
			defer func() { cmd = tea.Batch(cmd, m.statusCmd()) }() // the chat's own call: idle again?
		}
	}
	if m.log.apply(env.Type, v) {
		if m.log.finished != nil {
			m.busy = false
			return tea.Quit
		}
		return m.statusCmd()
	}
	return nil
}

// onStatus takes a status reply: the turn is over when the session is idle again (a refused
// final answer keeps it working).
func (m *tuiModel) onStatus(st *messages.StatusReply) tea.Cmd {
	if st == nil {
		return nil
	}
	m.cfg.model, m.cfg.mode = st.Model, string(st.Mode)
	if !m.warned {
		m.warned = true
		for _, w := range st.Warnings {
			m.log.note("warning: %s", w)
		}
	}
	if st.ContextWindow > 0 {
		m.log.contextPct = 100 * float64(st.ContextTokens) / float64(st.ContextWindow)
	}
	m.log.inTokens, m.log.outTokens = max(m.log.inTokens, st.InputTokens), max(m.log.outTokens, st.OutputTokens)
	if st.Phase == phaseIdle {
		m.busy, m.cancelling, m.log.phase = false, false, ""
	}
	for _, p := range st.Pending { // requests made before this client subscribed
		if p.CallID != "" && !m.asking(m.cfg.id, p.CallID) {
			m.asks = append(m.asks, pendingAsk{m.cfg.id, p})
		}
	}
	return nil
}

func (m *tuiModel) statusCmd() tea.Cmd {
	s, id := m.cfg.session, m.cfg.id
	return func() tea.Msg {
		st, err := s.Status(id)
		if err != nil {
			return nil
		}
		return statusMsg{st: st}
	}
}

// tick keeps the spinner and the clocks moving, a few times a second while a turn runs and
// once a second otherwise.
func (m *tuiModel) tick() tea.Cmd {
	every := time.Second
	if m.busy {
		every = 100 * time.Millisecond
	}
	return tea.Tick(every, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// selectedTool is the tool call Ctrl-O expands: the one picked with Alt-Up/Alt-Down, or the
// newest.
func (m *tuiModel) selectedTool() *entry {
	if m.picked != nil {
		return m.picked
	}
	return m.log.lastTool()
}

// selectTool moves the pick to an older (-1) or newer (+1) tool call; past the newest it
// follows the newest again.
func (m *tuiModel) selectTool(step int) {
	tools := m.log.tools()
	cur := len(tools) - 1
	for i, e := range tools {
		if e == m.picked {
			cur = i
		}
	}
	next := cur + step
	switch {
	case len(tools) == 0:
	case next >= len(tools) || next < 0 && m.picked == nil:
		m.picked = nil
	default:
		m.picked = tools[max(next, 0)]
	}
}
