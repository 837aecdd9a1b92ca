package syntaxcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"go.yaml.in/yaml/v4"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

func checkGo(path string, content []byte) *Problem {
	_, err := parser.ParseFile(token.NewFileSet(), path, content, parser.SkipObjectResolution)
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return &Problem{Line: list[0].Pos.Line, Col: list[0].Pos.Column, Msg: list[0].Msg}
	}
	if err != nil {
		return &Problem{Line: 1, Msg: err.Error()}
	}
	return nil
}

func checkJSON(content []byte) *Problem {
	if json.Valid(content) {
		return nil
	}
	var v any
	err := json.Unmarshal(content, &v)
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		// Offset counts the bytes read, the bad one included; at the end it is the length.
		off := int(syn.Offset)
		if off < len(content) {
			off--
		}
		line, col := lineCol(content, off)
		return &Problem{Line: line, Col: col, Msg: syn.Error()}
	}
	line, col := lineCol(content, len(content))
	msg := "invalid JSON"
	if err != nil {
		msg = err.Error()
	}
	return &Problem{Line: line, Col: col, Msg: msg}
}

var yamlLine = lazyre.New(`^yaml: line (\d+): (.*)$`)

func checkYAML(content []byte) *Problem {
	dec := yaml.NewDecoder(bytes.NewReader(content))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err == nil {
			continue
		}
		msg := err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return &Problem{Line: max(line, 1), Msg: m[2], Near: true}
		}
		return &Problem{Line: 1, Msg: strings.TrimPrefix(msg, "yaml: "), Near: true}
	}
}

func checkTOML(content []byte) *Problem {
	var v map[string]any
	err := toml.Unmarshal(content, &v)
	if err == nil {
		return nil
	}
	var derr *toml.DecodeError
	if errors.As(err, &derr) {
		row, col := derr.Position()
		return &Problem{Line: row, Col: col, Msg: derr.Error()}
	}
	return &Problem{Line: 1, Msg: err.Error()}
}
