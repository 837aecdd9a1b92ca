package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

// Lessons lists the project's lessons, one line each, best first; a record that could not be
// read gets its line on stderr.
func Lessons(stdout, stderr io.Writer, list *messages.LessonList, asJSON bool) error {
	for _, s := range list.Skipped {
		fmt.Fprintln(stderr, s)
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		for i := range list.Lessons {
			if err := enc.Encode(&list.Lessons[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if len(list.Lessons) == 0 {
		fmt.Fprintln(stderr, "no lessons yet: troupe learns one when a failure in a session is followed by its fix")
		return nil
	}
	for i := range list.Lessons {
		l := &list.Lessons[i]
		fmt.Fprintf(stdout, "%s  %-14s helped %d/%d  %s\n", l.ID, l.Trigger, l.Helped, l.Given, textfmt.Clip(oneLine(l.Failed), 100))
	}
	return nil
}

// Lesson shows one lesson whole.
func Lesson(w io.Writer, l *messages.Lesson) {
	fmt.Fprintf(w, "id        %s\ntrigger   %s\nfailed    %s\nfixed     %s\n", l.ID, l.Trigger, l.Failed, l.Fixed)
	if len(l.Files) > 0 {
		fmt.Fprintf(w, "files     %s\n", strings.Join(l.Files, ", "))
	}
	fmt.Fprintf(w, "model     %s\nlearnt    %s in session %s (seen %d times, last %s)\nscore     given %d, helped %d, trap came back %d\n",
		l.Model, l.Created.Format("2006-01-02 15:04"), l.Session, l.Seen, l.Updated.Format("2006-01-02 15:04"), l.Given, l.Helped, l.Recurred)
}

// FindLesson is the lesson whose id is or starts with id.
func FindLesson(list *messages.LessonList, id string) (*messages.Lesson, error) {
	var found []*messages.Lesson
	for i := range list.Lessons {
		if id != "" && strings.HasPrefix(list.Lessons[i].ID, id) {
			found = append(found, &list.Lessons[i])
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, clierr.Usagef("no lesson %q in this project (troupe lessons list shows them)", id)
	}
	return nil, clierr.Usagef("%q names %d lessons; give more of the id", id, len(found))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// LessonBook is where lessons are read and forgotten: the Node, through its client.
type LessonBook interface {
	Lessons() (*messages.LessonList, error)
	ForgetLesson(id string) (string, error)
}

// LessonsVerb runs troupe lessons list, show ID or forget ID (ids holds the ID) against book.
// An id that names no lesson, or several, is a usage error (exit 2), as an unknown session id
// is: the fix is in the command line.
func LessonsVerb(stdout, stderr io.Writer, book LessonBook, verb string, ids []string, asJSON bool) error {
	list, err := book.Lessons()
	if err != nil {
		return err
	}
	if verb == "list" {
		return Lessons(stdout, stderr, list, asJSON)
	}
	l, err := FindLesson(list, ids[0])
	if verb == "show" {
		if err != nil {
			return err
		}
		Lesson(stdout, l)
		return nil
	}
	// A damaged record is not listed, yet forget takes it by its id: the Node decides, and
	// its refusal of an id the list lacks too is the same usage error.
	target := ids[0]
	if err == nil {
		target = l.ID
	}
	id, ferr := book.ForgetLesson(target)
	switch {
	case ferr != nil && err != nil:
		return clierr.Usagef("%v", ferr)
	case ferr != nil:
		return ferr
	}
	fmt.Fprintf(stdout, "forgot lesson %s\n", id)
	return nil
}
