package turn

import "github.com/troupe-dev/troupe/messages"

// maxNudges bounds the notes for replies that did not land (malformed, reasoning only) in a
// row, like the empty replies before them: the next one fails the turn.
const maxNudges = 2

// Steering is the turn-level memory of one session: how replies are classified, the loop
// detector, the repair tally, and the nudges spent on replies that did not land.
type Steering struct {
	Classifier Classifier
	Loops      LoopDetector
	Tally      Tally
	// Repair is false when turn repair is switched off (the bench's baseline): calls written as
	// text are not recovered and loops are not steered.
	Repair bool
	// Class is the class of the current turn's reply ("" until it is classified).
	Class  messages.ReplyClass
	nudges int
}

// NewSteering returns the steering of a session with tools known. With repair off, parse is
// ignored and no loop is steered.
func NewSteering(repair bool, parse TextParser, known func(name string) bool) *Steering {
	s := &Steering{Repair: repair, Classifier: Classifier{Known: known}}
	if repair {
		s.Classifier.Parse = parse
	}
	return s
}

// Nudge counts one more reply that did not land and says whether another note is allowed.
func (s *Steering) Nudge() bool {
	s.nudges++
	return s.nudges <= maxNudges
}

// Nudges is how many replies in a row did not land.
func (s *Steering) Nudges() int { return s.nudges }

// Landed resets the nudges after a reply that did.
func (s *Steering) Landed() { s.nudges = 0 }

// Observe feeds one finished call to the loop detector and the tally.
func (s *Steering) Observe(o Observation, repairs []string) {
	s.Tally.Call(repairs)
	if s.Repair {
		s.Loops.Observe(o)
	}
}

// EndTurn is the loop found in the turn that just ended, if any and if repair is on.
func (s *Steering) EndTurn() *Loop {
	if !s.Repair {
		return nil
	}
	return s.Loops.EndTurn()
}
