package main

import (
	"fmt"
	"math/rand"
)

// The persona model (issue 9's bench, second version): a weak model is consistent in its
// mistakes. Each task is run by a persona that has, per family of mistake, the habit at the
// set rate, drawn once before the task, and for a family with variants the one variant it
// has (a model trained on Kimi writes every text call in Kimi's tokens; one trained on Claude
// Code calls Read with file_path every time). Every new step is written with one of its
// habits that fits the step. After the harness answers a call with an error, the persona
// repeats the same mistake with probability stickiness, or writes the call correctly. A
// persona with the loop habit re-sends its previous call once per step.

// stickinessEvidence are the reports in which we could tell what a model did after the
// harness rejected its call: repeated the same broken form (true) or corrected it (false).
var stickinessEvidence = []struct {
	source   string
	repeated bool
	what     string
}{
	{"https://github.com/anomalyco/opencode/issues/6918", true, "qwen3-coder: \"fails over and over again\" with the same invalid edit arguments"},
	{"https://github.com/cline/cline/issues/11551", true, "write_to_file without path, four times in a row after the same error"},
	{"https://github.com/cline/cline/issues/7741", true, "read_file without path, again after each error until Cline gives up after 3 retries"},
	{"https://github.com/cline/cline/issues/2906", true, "qwen2.5-coder-32b: read_file without path, \"Retrying...\""},
	{"https://github.com/QwenLM/qwen-code/issues/535", true, "Qwen3 30b: \"tried multiple times and the call never works\""},
	{"https://github.com/anomalyco/opencode/issues/29142", true, "qwen3-coder-next: \"repeated failed tool calls and can trap an agent in a loop\""},
	{"https://github.com/anomalyco/opencode/issues/1803", false, "minimax-m2.5: \"tries repeatedly and fails... Sometimes it recovers on its own\""},
	{"https://github.com/RooCodeInc/Roo-Code/issues/7406", true, "qwen3-coder-30b: apply_diff, search_and_replace, write_to_file without path, \"Retrying...\" until \"Roo is having trouble\""},
	{"https://github.com/anomalyco/opencode/issues/38782", true, "Ling 3.0 Flash: the same missing oldString, both read and edit failing again"},
}

// evidenceStickiness is the share of reports in which the model repeated the failed form.
func evidenceStickiness() (share float64, repeated, total int) {
	for _, e := range stickinessEvidence {
		if e.repeated {
			repeated++
		}
	}
	total = len(stickinessEvidence)
	return float64(repeated) / float64(total), repeated, total
}

// persona is one consistent weak model.
type persona struct {
	habits     []mistake // the mistakes it makes on new steps (loop aside), one per family
	loops      bool      // it re-sends its previous call once per step
	sticky     float64
	rng        *rand.Rand
	justLooped bool
}

func newPersona(rate, sticky float64, rng *rand.Rand) *persona {
	p := &persona{sticky: sticky, rng: rng}
	for _, f := range families {
		if rng.Float64() >= rate {
			continue
		}
		switch vs := variants[f]; {
		case f == "loop":
			p.loops = true
		case len(vs) > 0:
			p.habits = append(p.habits, mistake{f, vs[rng.Intn(len(vs))]})
		default:
			p.habits = append(p.habits, mistake{family: f})
		}
	}
	return p
}

func (p *persona) next(c callContext) mistake {
	if c.retry {
		if !c.last.clean() && p.rng.Float64() < p.sticky {
			return c.last
		}
		return mistake{} // it read the error and wrote the call correctly
	}
	if p.loops && !p.justLooped && loopMistake.fits(c) {
		p.justLooped = true
		return loopMistake
	}
	p.justLooped = false
	var fitting []mistake
	for _, h := range p.habits {
		if h.fits(c) {
			fitting = append(fitting, h)
		}
	}
	if len(fitting) == 0 {
		return mistake{}
	}
	return fitting[p.rng.Intn(len(fitting))]
}

// setting is one way of drawing the model's mistakes, with a label for the tables.
type setting struct {
	label string
	make  func(seed int64) mistakes
}

func iidSetting(rate float64) setting {
	return setting{fmt.Sprintf("i.i.d. noise %.0f%%", rate*100), func(seed int64) mistakes {
		return &iidNoise{rate: rate, rng: rand.New(rand.NewSource(seed))}
	}}
}

func personaSetting(rate, sticky float64) setting {
	return setting{fmt.Sprintf("persona %.0f%%, sticky %.2f", rate*100, sticky), func(seed int64) mistakes {
		return newPersona(rate, sticky, rand.New(rand.NewSource(seed)))
	}}
}

// summaryRow prints one setting's line of the summary table.
func summaryRow(label string, on, off *modeResult) {
	dOn, tOn := finished(on)
	dOff, tOff := finished(off)
	ratio := "∞"
	if dOff > 0 {
		ratio = fmt.Sprintf("%.1f×", float64(dOn)/float64(dOff))
	}
	fmt.Printf("%-28s %-9s %-9s %-7s %-11s %s\n", label, fmt.Sprintf("%d/%d", dOn, len(on.outcomes)), fmt.Sprintf("%d/%d", dOff, len(off.outcomes)), ratio,
		fmt.Sprintf("%.1f / %.1f", tOn, tOff), repairedShare(on))
}

// finished is how many tasks were done and the mean turns per task.
func finished(r *modeResult) (int, float64) {
	n, turns := 0, 0
	for _, o := range r.outcomes {
		turns += o.turns
		if o.done {
			n++
		}
	}
	return n, float64(turns) / float64(max(len(r.outcomes), 1))
}
