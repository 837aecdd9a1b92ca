package actors

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/troupe-dev/troupe/actors/lessons"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// runLessons is /lessons: the project's lessons, best first, read off the actor. Forgetting
// is `troupe lessons forget ID`, where the Node's keeper does it.
func runLessons(h commandHost, _ string) *messages.InputAck {
	st := h.Probes().store
	h.Later(auditTimeout, func() func() string {
		if st == nil {
			return func() string { return lessonsView(nil, nil, errors.New("the session has no store")) }
		}
		known, skipped, err := readLessons(st)
		return func() string { return lessonsView(known, skipped, err) }
	}, func(err error) string { return lessonsView(nil, nil, err) })
	return nil
}

// readLessons reads every lesson record of the project, with a line for each unreadable one.
func readLessons(st *store.Store) ([]messages.Lesson, []string, error) {
	epoch, err := st.LessonEpoch()
	if err != nil {
		return nil, nil, err
	}
	var known []messages.Lesson
	var skipped []string
	err = st.EachLesson(func(id string, data []byte) {
		l, err := lessons.Decode(id, data)
		if err != nil {
			skipped = append(skipped, err.Error())
			return
		}
		known = append(known, l)
	})
	sort.SliceStable(known, func(i, j int) bool { return lessons.Weight(&known[i], epoch) > lessons.Weight(&known[j], epoch) })
	return known, skipped, err
}

// lessonsView is /lessons for people.
func lessonsView(known []messages.Lesson, skipped []string, err error) string {
	if err != nil {
		return "lessons could not be read: " + err.Error()
	}
	var b strings.Builder
	if len(known) == 0 {
		b.WriteString("no lessons yet: troupe learns one when a failure is followed by its fix")
	}
	for i := range known {
		l := &known[i]
		fmt.Fprintf(&b, "%s  %-14s helped %d/%d  %s\n", l.ID, l.Trigger, l.Helped, l.Given, lessons.Line(l))
	}
	for _, s := range skipped {
		b.WriteString(s + "\n")
	}
	if len(known) > 0 {
		b.WriteString("(troupe lessons show ID / forget ID)")
	}
	return strings.TrimRight(b.String(), "\n")
}
