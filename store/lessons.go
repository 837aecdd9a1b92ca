package store

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// The project's lessons (docs/ARCHITECTURE.md, "The learning layer"): lesson/<id> holds one
// lesson record, encoded by actors/lessons; lesson-epoch counts the sessions that were handed the
// lessons, the clock lessons fade by. The store keeps the bytes; reading them is the lessons
// package's, so a record it cannot read is skipped there with a line, the others intact.
const (
	lessonPrefix = "lesson/"
	lessonEpoch  = "lesson-epoch"
)

func lessonKey(id string) ([]byte, error) {
	if id == "" || strings.ContainsAny(id, "/\x00") {
		return nil, fmt.Errorf("lesson id %q is empty or has '/' or NUL", id)
	}
	return []byte(lessonPrefix + id), nil
}

// UpdateLesson rewrites the record of id in one transaction: change gets the stored bytes (nil
// when there are none) and returns the new ones; nil deletes the record.
func (s *Store) UpdateLesson(id string, change func(old []byte) ([]byte, error)) error {
	key, err := lessonKey(id)
	if err != nil {
		return err
	}
	err = s.update(func(txn *badger.Txn) error {
		var old []byte
		item, err := txn.Get(key)
		switch {
		case errors.Is(err, badger.ErrKeyNotFound):
		case err != nil:
			return err
		default:
			if old, err = item.ValueCopy(nil); err != nil {
				return err
			}
		}
		data, err := change(old)
		if err != nil {
			return err
		}
		if data == nil {
			if old == nil {
				return nil
			}
			return txn.Delete(key)
		}
		return txn.Set(key, data)
	})
	if err != nil {
		return fmt.Errorf("update lesson %s: %w", id, err)
	}
	return nil
}

// EachLesson calls fn with every lesson record, by id order.
func (s *Store) EachLesson(fn func(id string, data []byte)) error {
	err := s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: true, Prefix: []byte(lessonPrefix)})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			data, err := it.Item().ValueCopy(nil)
			if err != nil {
				return fmt.Errorf("read %s: %w", it.Item().Key(), err)
			}
			fn(string(it.Item().Key()[len(lessonPrefix):]), data)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read lessons: %w", err)
	}
	return nil
}

// DeleteLesson removes the record of id; it reports whether there was one.
func (s *Store) DeleteLesson(id string) (bool, error) {
	found := false
	err := s.UpdateLesson(id, func(old []byte) ([]byte, error) {
		found = old != nil
		return nil, nil
	})
	return found, err
}

// LessonEpoch is the project's count of sessions handed lessons.
func (s *Store) LessonEpoch() (int, error) {
	n := 0
	err := s.view(func(txn *badger.Txn) error {
		var err error
		n, err = readEpoch(txn)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("read lesson epoch: %w", err)
	}
	return n, nil
}

// NextLessonEpoch adds one to the epoch and returns the new count.
func (s *Store) NextLessonEpoch() (int, error) {
	n := 0
	err := s.update(func(txn *badger.Txn) error {
		cur, err := readEpoch(txn)
		if err != nil {
			return err
		}
		n = cur + 1
		return txn.Set([]byte(lessonEpoch), []byte(strconv.Itoa(n)))
	})
	if err != nil {
		return 0, fmt.Errorf("advance lesson epoch: %w", err)
	}
	return n, nil
}

func readEpoch(txn *badger.Txn) (int, error) {
	item, err := txn.Get([]byte(lessonEpoch))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	err = item.Value(func(b []byte) error {
		v, err := strconv.Atoi(string(b))
		if err != nil {
			// a damaged counter restarts the clock rather than stopping the lessons
			v = 0
		}
		n = v
		return nil
	})
	return n, err
}
