package main

import (
	"os"
	"testing"
)

func TestTUIOnlyOnATerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	m := &Main{Stdin: r, Stdout: w, Getenv: func(string) string { return "xterm-256color" }}
	if m.onTerminal() {
		t.Error("pipes were taken for a terminal: the line chat must serve them")
	}
}
