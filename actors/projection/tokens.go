package projection

import (
	"unicode"
	"unicode/utf8"

	"github.com/troupe-dev/troupe/llm"
)

// Token estimates only have to be good enough to place the compaction watermark; the provider's
// reported usage is the truth wherever there is one (Accountant).
const (
	bytesPerToken   = 4 // English prose and code average about 4 bytes per token
	messageOverhead = 4 // role and framing tokens every provider adds per message
	callOverhead    = 4 // framing of one tool call (id, type, braces)
)

// EstimateTokens estimates how many tokens s costs: about one per 4 bytes of ASCII or other
// text, but one per CJK character. A CJK character is 3 bytes of UTF-8 and usually a whole
// token, so the byte rule would undercount Chinese or Japanese text about 4×, and the
// watermark of an all-CJK session would never trigger compaction (seed 003).
func EstimateTokens(s string) int {
	cjk, other := 0, 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			other++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if isCJK(r) {
			cjk++
		} else {
			other += size
		}
		i += size
	}
	return cjk + (other+bytesPerToken-1)/bytesPerToken
}

// isCJK reports whether r is a Han, Kana or Hangul character, or CJK punctuation (full-width
// forms and the ideographic comma and full stop tokenize like the text around them).
func isCJK(r rune) bool {
	switch {
	case r >= 0x3000 && r <= 0x303F, r >= 0xFF00 && r <= 0xFFEF:
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// EstimateMessage estimates what m costs in a request: its text, reasoning and tool calls,
// plus a small per-message overhead. Reasoning counts although adapters echo it only to the
// model that wrote it: overestimating moves the watermark earlier, which is the safe side.
func EstimateMessage(m llm.Message) int {
	n := messageOverhead + EstimateTokens(m.Content) + EstimateTokens(m.Reasoning)
	for _, c := range m.ToolCalls {
		n += callOverhead + EstimateTokens(c.Name) + EstimateTokens(c.Args)
	}
	if m.Role == llm.RoleTool {
		n += EstimateTokens(m.ToolCallID) + EstimateTokens(m.ToolName)
	}
	for _, img := range m.Images {
		n += ImageTokens(img)
	}
	return n
}

// ImageTokens estimates what one image costs: Anthropic documents width×height/750, and a
// fitted image (internal/imagefit) stays near 1600; the others charge less or alike.
func ImageTokens(img llm.Image) int {
	return min(max(img.Width*img.Height/750, 85), 1600)
}

// EstimateMessages is the sum of EstimateMessage over msgs.
func EstimateMessages(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += EstimateMessage(m)
	}
	return n
}

// Accountant tracks how many input tokens the next call will cost. The provider's reported
// input tokens for the last call are the truth (they include the system prompt and tool
// schemas); only the messages appended since are estimated. The zero value is ready to use.
// Not safe for concurrent use: it belongs to the session actor.
type Accountant struct {
	reported int // input tokens the provider reported for the last call
	sent     int // messages that call carried
	observed bool
}

// Observe records the last call's reported input tokens and how many messages it carried. A
// provider that reports no usage (inputTokens ≤ 0, as some local servers do) leaves nothing
// to build on: the Accountant then estimates everything.
func (a *Accountant) Observe(inputTokens, messagesSent int) {
	if inputTokens <= 0 || messagesSent < 0 {
		a.Reset()
		return
	}
	a.reported, a.sent, a.observed = inputTokens, messagesSent, true
}

// Reset forgets the last observation. Call it after a compaction rewrote the projection: the
// message list may be no shorter than the last call's, yet the reported count no longer
// describes its head.
func (a *Accountant) Reset() { *a = Accountant{} }

// Estimate returns the input tokens msgs will cost: the last reported count plus an estimate
// of the messages appended since. With no observation, or when msgs is shorter than the last
// call's list (a compaction replaced its head), it estimates all of msgs plus prefixTokens (the
// system prompt and tool schemas, which a reported count already includes).
//
// An idle-gap microcompact shrinks old messages without changing their number; the reported
// count then overestimates until the next call reports again, which errs on the safe side.
func (a *Accountant) Estimate(msgs []llm.Message, prefixTokens int) int {
	if !a.observed || len(msgs) < a.sent {
		return prefixTokens + EstimateMessages(msgs)
	}
	return a.reported + EstimateMessages(msgs[a.sent:])
}
