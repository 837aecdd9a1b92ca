package actors

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/internal/safefs"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// auditTimeout answers /audit before the control request's own deadline (10 s at the bridge).
const auditTimeout = 8 * time.Second

// auditLogPage is how much of the stored log one read holds while /audit scans it.
const auditLogPage = 1 << 20

// auditProbes is what /audit reads off the actor: the disk behind the file-truth records, the
// stored log and goal, and the bus.
type auditProbes struct {
	root    string
	records []*tools.FileRecord
	store   *store.Store
	session string
	conn    *nats.Conn
	subs    []*nats.Subscription
}

// fill runs the probes into a. It runs off the actor: it reads the disk and pings the bus.
func (p auditProbes) fill(a *sessionAudit) {
	if p.records == nil && p.store != nil {
		p.records, _ = storedFileRecords(p.store, p.session) // a store that cannot be read shows in the log scan
	}
	a.Files = observeFiles(p.root, p.records)
	a.Log = scanLog(p.store, p.session)
	a.Stored, a.StoredErr = storedGoal(p.store, p.session)
	a.Bus = probeBus(p.conn, p.subs)
}

// observeFiles looks at each tracked file as it is on disk now, without touching the records
// (the recheck before the next model call still reports a change, once). A file whose size and
// modification time are the record's is taken as unchanged, as the recheck takes it; others
// are hashed.
func observeFiles(root string, records []*tools.FileRecord) []fileObservation {
	if len(records) == 0 {
		return nil
	}
	out := make([]fileObservation, len(records))
	ws, err := safefs.Open(root)
	if err == nil {
		defer ws.Close()
	}
	for i, r := range records {
		out[i].Record = *r
		if err != nil {
			out[i].Err = err.Error()
			continue
		}
		out[i].SHA256, out[i].Missing, out[i].Err = observeFile(ws, r)
	}
	return out
}

func observeFile(ws *safefs.Root, r *tools.FileRecord) (sum string, missing bool, problem string) {
	f, err := ws.OpenFile(r.Path) // never blocks on a FIFO
	if errors.Is(err, fs.ErrNotExist) {
		return "", true, ""
	}
	if err != nil {
		return "", false, err.Error()
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", false, err.Error()
	}
	if !info.Mode().IsRegular() {
		return "", false, "it is no longer a regular file"
	}
	if info.Size() == r.Size && info.ModTime().Equal(r.ModTime) {
		if r.DiskSHA256 != "" {
			return r.DiskSHA256, false, "" // the external change the recheck saw, still there
		}
		return r.SHA256, false, ""
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", false, err.Error()
	}
	return hex.EncodeToString(h.Sum(nil)), false, ""
}

// scanLog reads the session's log back a page at a time, keeping only what the checks need.
func scanLog(st *store.Store, session string) logScan {
	var l logScan
	if st == nil {
		l.Err = errors.New("the session has no store")
		return l
	}
	for after := uint64(0); ; {
		page, more, err := st.LogPage(session, after, auditLogPage)
		if err != nil {
			l.Err = err
			return l
		}
		for _, e := range page {
			l.add(e)
			after = e.Seq
		}
		if !more || len(page) == 0 {
			return l
		}
	}
}

// storedGoal is the goal the store holds for the session; nil when none was ever stored.
func storedGoal(st *store.Store, session string) (*messages.Goal, error) {
	if st == nil {
		return nil, nil
	}
	var g messages.Goal
	if err := st.Goal(session, &g); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil
		}
		return nil, err
	}
	return &g, nil
}

// probeBus times a ping round trip on the node's connection.
func probeBus(nc *nats.Conn, subs []*nats.Subscription) busObservation {
	if nc == nil {
		return busObservation{Absent: true}
	}
	b := busObservation{Status: nc.Status().String(), Connected: nc.IsConnected(), Subs: len(subs)}
	for _, sub := range subs {
		if !sub.IsValid() {
			b.Dead++
		}
	}
	if b.Connected {
		b.RTT, b.Err = nc.RTT()
	}
	return b
}
