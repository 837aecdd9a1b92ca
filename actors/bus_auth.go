package actors

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// BusCredentials are how this process authenticates to an external NATS server ([bus] in the
// configuration, docs/CONFIG.md): at most one of a token, a user and password, an NKey seed
// file or a .creds file (a user JWT and its seed), plus TLS. Credentials in the URL
// (nats://user:pass@host) still work. The embedded bus ignores them: it hands out its own.
type BusCredentials struct {
	Token          string
	User, Password string
	NKeyFile       string // a file holding an NKey user seed (SU…)
	CredsFile      string // a .creds file: a user JWT and its seed (operator/JWT deployments)
	CAFile         string // PEM roots to verify the server with (else the system's)
	CertFile       string // a client certificate (PEM) for servers that verify clients
	KeyFile        string // its private key
}

// Method names the authentication the credentials use, for troupe doctor.
func (c BusCredentials) Method() string {
	var m []string
	switch {
	case c.CredsFile != "":
		m = append(m, "creds file "+c.CredsFile)
	case c.NKeyFile != "":
		m = append(m, "nkey seed "+c.NKeyFile)
	case c.User != "":
		m = append(m, "user "+c.User)
	case c.Token != "":
		m = append(m, "token")
	}
	if c.CAFile != "" || c.CertFile != "" {
		tls := "TLS"
		if c.CertFile != "" {
			tls += " with client certificate " + c.CertFile
		}
		m = append(m, tls)
	}
	if len(m) == 0 {
		return "none (or in the URL)"
	}
	return strings.Join(m, ", ")
}

// Check reports a setting that cannot work, in words saying how to fix it.
func (c BusCredentials) Check() error {
	set := 0
	for _, v := range []string{c.Token, c.User, c.NKeyFile, c.CredsFile} {
		if v != "" {
			set++
		}
	}
	if set > 1 {
		return errors.New("[bus] sets more than one of token, user, nkey and creds: keep the one your server expects")
	}
	if c.Password != "" && c.User == "" {
		return errors.New("[bus] password needs user")
	}
	if (c.CertFile == "") != (c.KeyFile == "") {
		return errors.New("[bus] tls_cert and tls_key go together: set both or neither")
	}
	for _, f := range []struct{ key, path string }{
		{"nkey", c.NKeyFile}, {"creds", c.CredsFile}, {"tls_ca", c.CAFile}, {"tls_cert", c.CertFile}, {"tls_key", c.KeyFile},
	} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			return fmt.Errorf("[bus] %s: %w", f.key, err)
		}
	}
	return nil
}

// options are the connection options the credentials make.
func (c BusCredentials) options() ([]nats.Option, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	var opts []nats.Option
	switch {
	case c.CredsFile != "":
		opts = append(opts, nats.UserCredentials(c.CredsFile))
	case c.NKeyFile != "":
		o, err := nats.NkeyOptionFromSeed(c.NKeyFile)
		if err != nil {
			return nil, fmt.Errorf("[bus] nkey %s: %w", c.NKeyFile, err)
		}
		opts = append(opts, o)
	case c.User != "":
		opts = append(opts, nats.UserInfo(c.User, c.Password))
	case c.Token != "":
		opts = append(opts, nats.Token(c.Token))
	}
	if c.CAFile != "" {
		opts = append(opts, nats.RootCAs(c.CAFile))
	}
	if c.CertFile != "" {
		opts = append(opts, nats.ClientCert(c.CertFile, c.KeyFile))
	}
	return opts, nil
}

// Secrets are the values tool output must never show (the redactor hides them).
func (c BusCredentials) Secrets() []string {
	var s []string
	for _, v := range []string{c.Token, c.Password} {
		if v != "" {
			s = append(s, v)
		}
	}
	return s
}

// busKeys are the embedded bus's credentials: one NKey user per kind. The client, worker and
// watcher seeds are generated once per project and kept in the state directory (<state>/bus,
// mode 0700, one <kind>.nk file each, 0600) so a watcher or a local worker can be given only
// its own file; the Node's seed is made fresh at every start and never leaves the process.
type busKeys struct {
	dir  string
	keys map[CredKind]nkeys.KeyPair
	pubs map[CredKind]string // derived once: each derivation costs ~50 µs of the start
}

// BusKeyDir is where the embedded bus keeps its per-kind seed files.
func BusKeyDir(stateDir string) string { return filepath.Join(stateDir, "bus") }

// BusKeyFile is the seed file of kind in dir (a NodeInfo's Creds).
func BusKeyFile(dir string, kind CredKind) string { return filepath.Join(dir, string(kind)+".nk") }

// loadBusKeys reads the kinds' seeds from dir, creating those that are missing.
func loadBusKeys(dir string) (*busKeys, error) {
	k := &busKeys{dir: dir, keys: map[CredKind]nkeys.KeyPair{}, pubs: map[CredKind]string{}}
	node, err := nkeys.CreateUser()
	if err != nil {
		return nil, fmt.Errorf("bus credentials: %w", err)
	}
	k.keys[KindNode] = node
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("bus credentials: %w", err)
	}
	for _, kind := range CredKinds[1:] {
		kp, err := loadOrCreateSeed(BusKeyFile(dir, kind))
		if err != nil {
			return nil, fmt.Errorf("bus credentials (%s): %w", kind, err)
		}
		k.keys[kind] = kp
	}
	for kind, kp := range k.keys {
		pub, err := kp.PublicKey()
		if err != nil {
			return nil, fmt.Errorf("bus credentials (%s): %w", kind, err)
		}
		k.pubs[kind] = pub
	}
	return k, nil
}

// loadOrCreateSeed reads the seed at path, or makes one there. Two Nodes starting at once for
// one project (concurrent detached runs) may both make one: the seed is written to a temporary
// file of its own and linked into place, which fails if the other was first, and then the
// other's seed is the one both use (one of them then loses the store's lock and exits).
func loadOrCreateSeed(path string) (nkeys.KeyPair, error) {
	data, err := os.ReadFile(path)
	damaged := false
	if err == nil {
		if kp, perr := nkeys.ParseDecoratedNKey(data); perr == nil {
			return kp, nil
		}
		damaged = true // replaced: the bus is local and its clients read the new one
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, err
	}
	seed, err := kp.Seed()
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp") // mode 0600
	if err != nil {
		return nil, err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, err = f.Write(append(seed, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	if damaged {
		return kp, os.Rename(tmp, path)
	}
	if err := os.Link(tmp, path); errors.Is(err, os.ErrExist) {
		data, err := os.ReadFile(path) // another Node made it first
		if err != nil {
			return nil, err
		}
		return nkeys.ParseDecoratedNKey(data)
	} else if err != nil {
		return nil, err
	}
	return kp, nil
}

// users are the server's NKey users, each with its kind's permissions in project ns.
func (k *busKeys) users(ns string) ([]*server.NkeyUser, error) {
	var users []*server.NkeyUser
	for _, kind := range CredKinds {
		users = append(users, &server.NkeyUser{Nkey: k.pubs[kind], Permissions: serverPermissions(GrantFor(kind, ns))})
	}
	return users, nil
}

// nodeOption authenticates the Node's own (in-process) connections.
func (k *busKeys) nodeOption() nats.Option {
	return nats.Nkey(k.pubs[KindNode], k.keys[KindNode].Sign)
}

// serverPermissions turns a grant into the embedded server's permissions (nil: everything).
func serverPermissions(g Grant) *server.Permissions {
	if g.All {
		return nil
	}
	side := func(allow []string) *server.SubjectPermission {
		if len(allow) == 0 { // an empty allow list would allow everything
			return &server.SubjectPermission{Deny: []string{">"}}
		}
		return &server.SubjectPermission{Allow: allow}
	}
	p := &server.Permissions{Publish: side(g.Publish), Subscribe: side(g.Subscribe)}
	if g.AllowResponses {
		p.Response = &server.ResponsePermission{MaxMsgs: server.DEFAULT_ALLOW_RESPONSE_MAX_MSGS, Expires: server.DEFAULT_ALLOW_RESPONSE_EXPIRATION}
	}
	return p
}

// Dial connects to a running Node's bus from another process as a client of kind: on the
// embedded bus with that kind's seed file (info.Creds), on an external server with creds (this
// process's own [bus] settings). A Node that restarts listens on a new port, so a dropped
// connection is not retried (the client notices at once) and a hung Node is found by pings
// within a few seconds.
func Dial(info *NodeInfo, kind CredKind, creds BusCredentials, name string) (*nats.Conn, error) {
	var auth []nats.Option
	switch {
	case info.Creds != "":
		o, err := nats.NkeyOptionFromSeed(BusKeyFile(info.Creds, kind))
		if err != nil {
			return nil, fmt.Errorf("read the %s credential of the troupe bus: %w", kind, err)
		}
		auth = append(auth, o)
	case info.Token != "":
		auth = append(auth, nats.Token(info.Token))
	default:
		o, err := creds.options()
		if err != nil {
			return nil, err
		}
		auth = o
	}
	opts := append(auth, nats.Name(name), nats.Timeout(dialTimeout), nats.NoReconnect(),
		nats.PingInterval(dialPing), nats.MaxPingsOutstanding(2), asyncErrors(nil))
	if kind == KindWatcher {
		opts = append(opts, nats.CustomInboxPrefix(WatcherInbox)) // the only replies it may read
	}
	nc, err := nats.Connect(info.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to troupe bus at %s: %w", info.URL, err)
	}
	return nc, nil
}
