// Package projection builds the model-visible context of a session from its durable log
// (docs/DESIGN-NOTES.md "Context").
//
// The log keeps everything; the context sent to the model is a bounded view of it, built
// before every call by Project, a pure function of the log, the clock and the app state (a
// session keeps a Projector, which gives the same answer taking in only what was appended since
// its last call). The view is what keeps a session that runs for hours inside its model's window:
//
//   - the last compact boundary stands in for everything it replaced (Boundary.Render);
//   - recent entries are verbatim;
//   - after an idle gap, older tool outputs become previews that keep their artifact refs
//     (idle-gap microcompact);
//   - state blocks (goal, todo, changed files, running agents) close the view.
//
// Collapsing an old span into a boundary is decided here too (SelectSpan, SafeCut) and
// written either by a model (SummaryPrompt, ParseSummary) or without one (Mechanical), but it
// is the caller that appends the boundary to the log: this package never does I/O.
//
// Whatever it drops or rewrites, the projection never separates a tool call from its result:
// Violations states that invariant and the tests hold every function here to it.
//
// Token counts come from the provider where it reports them; Accountant estimates only the
// messages appended since the last call (EstimateTokens weighs CJK text separately), and
// Window knows the context windows of common models.
package projection
