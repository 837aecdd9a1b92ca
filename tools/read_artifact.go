package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

const readArtifactDefaultLimit = 400

type readArtifact struct{}

// ReadArtifact is the read_artifact tool. It pages through outputs kept in Env.Artifacts; with
// no store it answers with an error, so registering it is always safe.
func ReadArtifact() Tool { return readArtifact{} }

func (readArtifact) Spec() Spec {
	return Spec{
		Name:        "read_artifact",
		Description: "Page through a large output that was kept out of context (a result that says ref=…). Lines are numbered; reads up to 400 lines from offset.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"ref":{"type":"string","description":"the ref a cut result gave"},` +
			`"offset":{"type":"integer","minimum":1,"description":"first line, 1-based (default 1)"},` +
			`"limit":{"type":"integer","minimum":1,"description":"number of lines (default 400)"}},` +
			`"required":["ref"],"additionalProperties":false}`),
		Risk:           RiskRead,
		MaxResultBytes: readOutputBudget + 4<<10,
	}
}

type readArtifactArgs struct {
	Ref    string `json:"ref"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

func (readArtifact) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a readArtifactArgs
	if bad := decodeArgs("read_artifact", raw, &a); bad != nil {
		return *bad
	}
	if env.Artifacts == nil {
		return errorResult("no artifact store: this session keeps no large outputs, so there is nothing to page through")
	}
	data, err := env.Artifacts.Artifact(a.Ref)
	if err != nil {
		return errorResult(fmt.Sprintf("read_artifact %s: %v (use the exact ref a cut result gave)", a.Ref, err))
	}
	name := "artifact " + a.Ref
	res := readLines(ctx, bufio.NewReader(bytes.NewReader(data)), name, max(a.Offset, 1), orDefault(a.Limit, readArtifactDefaultLimit))
	return res.Result
}
