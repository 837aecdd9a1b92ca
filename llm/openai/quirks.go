package openai

import "slices"

// Quirk names one leniency the wire needed: a server bent the protocol and troupe read it
// anyway. Each one that fired is reported (the wire.quirk event), never silent.
type Quirk string

const (
	QuirkArgumentsObject  Quirk = "arguments_object"   // arguments sent as a JSON object, not a string
	QuirkCallWithoutIndex Quirk = "call_without_index" // a call delta with no index
	QuirkCallWithoutID    Quirk = "call_without_id"    // a call that never got an id; one was made up
	QuirkReusedIndex      Quirk = "reused_index"       // two calls sent under one index
	QuirkRepeatedName     Quirk = "repeated_name"      // the whole name sent again in a later delta
	QuirkFinishStopCalls  Quirk = "finish_stop_with_calls"
	QuirkFinishMissing    Quirk = "finish_missing"         // [DONE] came without any finish_reason
	QuirkMissingDone      Quirk = "missing_done"           // the body ended without [DONE]
	QuirkNoUsage          Quirk = "no_usage"               // no usage anywhere in the stream
	QuirkKeepAlive        Quirk = "keepalive_chunk"        // chunks with no choices and no usage
	QuirkUnstreamed       Quirk = "unstreamed_reply"       // a whole JSON completion where a stream was asked for
	QuirkOddFieldType     Quirk = "odd_field_type"         // a field of the wrong JSON type, skipped
	QuirkInvalidUTF8      Quirk = "invalid_utf8"           // bytes that are not UTF-8, replaced
	QuirkContentParts     Quirk = "content_parts"          // content sent as an array of parts
	QuirkReasoningDetails Quirk = "reasoning_details"      // reasoning read from reasoning_details only
	QuirkMistralCallIDs   Quirk = "mistral_call_ids"       // call ids rewritten to Mistral's nine characters
	QuirkNoStreamOptions  Quirk = "no_stream_options"      // the endpoint rejects stream_options
	QuirkNoParallelField  Quirk = "no_parallel_tool_calls" // the endpoint rejects parallel_tool_calls
)

// Quirks is a small ordered set of quirks.
type Quirks []Quirk

// Add records q once.
func (qs *Quirks) Add(q Quirk) {
	if !slices.Contains(*qs, q) {
		*qs = append(*qs, q)
	}
}

// Merge adds every quirk of other.
func (qs *Quirks) Merge(other Quirks) {
	for _, q := range other {
		qs.Add(q)
	}
}
