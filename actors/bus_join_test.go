package actors

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/troupe-dev/troupe/internal/natstest"
	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// refusedOn publishes data to subject on the external server at url as creds and returns nil
// only when the server answers with a permissions violation.
func refusedOn(t *testing.T, url string, creds BusCredentials, subject string, data []byte) error {
	t.Helper()
	errs := make(chan error, 1)
	auth, err := creds.options()
	if err != nil {
		return err
	}
	nc, err := nats.Connect(url, append(auth, nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		select {
		case errs <- err:
		default:
		}
	}))...)
	if err != nil {
		return err
	}
	defer nc.Close()
	nc.Publish(subject, data)
	nc.Flush()
	select {
	case err := <-errs:
		if errors.Is(err, nats.ErrPermissionViolation) || strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
			return nil
		}
		return err
	case <-time.After(testwait.Scale(5 * time.Second)):
		return ErrNotRefused
	}
}

// docsServerConfig is docs/WORKERS.md's example server configuration (project "myproj").
func docsServerConfig(t *testing.T) string { return natstest.DocsConfig(t, "../docs/WORKERS.md") }

// The example configuration in docs/WORKERS.md runs on the stock server and does what the
// table says: no credentials, no entry; the watcher cannot forge a result or a cancel; a client
// cannot publish to an inbox or the task queue; a worker consumes tasks and keeps objects with
// the JetStream API but cannot publish to an inbox; a Node joined as troupe-node serves a
// watcher's read-only query. Its grants are GrantFor's, subject for subject.
func TestDocsExampleServerConfig(t *testing.T) {
	const ns = "myproj"
	conf := docsServerConfig(t)
	for _, kind := range CredKinds[1:] {
		g := GrantFor(kind, ns)
		for _, s := range append(append([]string{}, g.Publish...), g.Subscribe...) {
			if !strings.Contains(conf, `"`+s+`"`) {
				t.Errorf("docs/WORKERS.md: the %s user lacks %s", kind, s)
			}
		}
	}
	c := natstest.Start(t, natstest.Options{Accounts: conf})
	url := c.URL()
	user := func(kind string) BusCredentials {
		return BusCredentials{User: "troupe-" + kind, Password: kind + "-secret"}
	}
	if _, err := JoinBus(url, BusCredentials{}, nil); err == nil {
		t.Fatal("joined without credentials")
	}
	if _, err := JoinBus(url, BusCredentials{User: "troupe-node", Password: "guess"}, nil); err == nil {
		t.Fatal("joined with a wrong password")
	}
	forged, _ := messages.Encode(&messages.AgentResult{Handle: "h", Session: "s1", Status: messages.AgentDone, Summary: "forged"})
	cancel, _ := messages.Encode(&messages.Cancel{Reason: "forged"})
	for _, r := range []struct {
		kind, subject string
		data          []byte
	}{
		{"watcher", messages.InboxSubject(ns, "s1"), forged},
		{"watcher", messages.ControlSubject(ns, "s1"), cancel},
		{"watcher", messages.WorkerResultsSubject(ns, "w1"), forged},
		{"client", messages.InboxSubject(ns, "s1"), forged},
		{"client", messages.TasksSubject(ns), forged},
		{"worker", messages.InboxSubject(ns, "s1"), forged},
		{"worker", messages.TasksSubject(ns), forged},
		{"worker", messages.ControlSubject(ns, "s1"), cancel},
	} {
		if err := refusedOn(t, url, user(r.kind), r.subject, r.data); err != nil {
			t.Errorf("%s → %s: %v", r.kind, r.subject, err)
		}
	}

	// JetStream as the Node and a worker use it.
	node, err := JoinBus(url, user("node"), nil)
	if err != nil {
		t.Fatal(err)
	}
	nodeConn, err := node.Connect("node")
	if err != nil {
		t.Fatal(err)
	}
	defer nodeConn.Close()
	worker, err := (&Bus{url: url, creds: user("worker")}).Connect("worker")
	if err != nil {
		t.Fatal(err)
	}
	defer worker.Close()
	ctx, stop := context.WithTimeout(context.Background(), testwait.Scale(60*time.Second))
	defer stop()
	njs, _ := jetstream.New(nodeConn)
	wjs, _ := jetstream.New(worker)
	testwait.For(t, 30*time.Second, func() error {
		_, err := njs.CreateStream(ctx, jetstream.StreamConfig{Name: tasksStream(ns), Subjects: []string{messages.TasksSubject(ns)},
			Retention: jetstream.WorkQueuePolicy})
		return err
	})
	if _, err := njs.Publish(ctx, messages.TasksSubject(ns), []byte("task")); err != nil {
		t.Fatal(err)
	}
	cons, err := wjs.CreateOrUpdateConsumer(ctx, tasksStream(ns), jetstream.ConsumerConfig{Durable: "workers", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatalf("the worker's consumer: %v", err)
	}
	batch, err := cons.Fetch(1, jetstream.FetchMaxWait(testwait.Scale(10*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	for m := range batch.Messages() {
		got++
		if err := m.InProgress(); err != nil {
			t.Errorf("in-progress ack: %v", err)
		}
		if err := m.DoubleAck(ctx); err != nil {
			t.Errorf("ack: %v", err)
		}
	}
	if got != 1 || batch.Error() != nil {
		t.Fatalf("the worker fetched %d tasks (%v)", got, batch.Error())
	}
	if _, err := njs.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: "troupe_code_" + ns}); err != nil {
		t.Fatal(err)
	}
	obj, err := wjs.ObjectStore(ctx, "troupe_code_"+ns)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"first", "second"} { // a checkpoint replaces the last: a purge
		if _, err := obj.PutBytes(ctx, "ckpt/t1", []byte(v)); err != nil {
			t.Fatalf("the worker's checkpoint %s: %v", v, err)
		}
	}
	if data, err := obj.GetBytes(ctx, "ckpt/t1"); err != nil || string(data) != "second" {
		t.Fatalf("the worker reads its checkpoint: %q %v", data, err)
	}
	// The worker keeps a finished task's result (creating the bucket); the Node reads and
	// forgets it; a watcher cannot forge one there (docs/WORKERS.md "Durable results").
	kept, err := taskqueue.OpenResults(ctx, wjs, ns, 1)
	if err != nil {
		t.Fatalf("the worker opens the results bucket: %v", err)
	}
	if err := kept.Put(ctx, "t1", &messages.AgentResult{Session: "t1", Status: messages.AgentDone}); err != nil {
		t.Fatalf("the worker keeps a result: %v", err)
	}
	nodeKept, err := taskqueue.OpenResults(ctx, njs, ns, 1)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := nodeKept.Get(ctx, "t1"); v == nil || err != nil {
		t.Fatalf("the Node reads the kept result: %v, %v", v, err)
	}
	if err := nodeKept.Remove(ctx, "t1"); err != nil {
		t.Fatalf("the Node forgets the kept result: %v", err)
	}
	if err := refusedOn(t, url, user("watcher"), "$KV."+taskqueue.ResultsBucket(ns)+".t2", forged); err != nil {
		t.Errorf("watcher → the results bucket: %v", err)
	}

	// A Node joined as troupe-node; a watcher lists its sessions on the query subject.
	root := t.TempDir()
	s, _ := llm.ParseScript("test", []byte(`{"turns": [{"text": "hi"}]}`))
	n, err := StartNode(NodeOptions{Root: root, NATS: url, BusCredentials: user("node"), Project: ns, Retry: llm.RetryPolicy{MaxAttempts: 1},
		Provider: func(string, string, func(string) string) (llm.Provider, string, error) {
			return llm.NewScriptedFrom(s), "scripted", nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	info := n.Info()
	if info.Creds != "" || info.NS != ns {
		t.Fatalf("node.json for an external server: %+v", info)
	}
	wc, err := Dial(info, KindWatcher, user("watcher"), "watch")
	if err != nil {
		t.Fatal(err)
	}
	watch := NewNodeClient(wc, info)
	defer watch.Close()
	if _, err := watch.Sessions(); err != nil {
		t.Fatalf("the watcher's session list from a Node on the external server: %v", err)
	}
}

// tlsFiles writes a CA, a server certificate for 127.0.0.1 and a client certificate into dir.
func tlsFiles(t *testing.T, dir string) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "troupe test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, typ string, der []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("ca.pem", "CERTIFICATE", caDER)
	for i, leaf := range []struct {
		name  string
		usage x509.ExtKeyUsage
	}{{"server", x509.ExtKeyUsageServerAuth}, {"client", x509.ExtKeyUsageClientAuth}} {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		cert := &x509.Certificate{SerialNumber: big.NewInt(int64(i + 2)), Subject: pkix.Name{CommonName: leaf.name},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{leaf.usage},
			IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}}
		der, err := x509.CreateCertificate(rand.Reader, cert, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		keyDER, _ := x509.MarshalECPrivateKey(key)
		write(leaf.name+".pem", "CERTIFICATE", der)
		write(leaf.name+"-key.pem", "EC PRIVATE KEY", keyDER)
	}
}

// A server that requires TLS with client certificates, and users with a password or an NKey:
// each credential joins with the CA and a client certificate; without the certificate, or
// with a seed the server does not know, the join fails with a JoinError.
func TestJoinWithTLSUserAndNKey(t *testing.T) {
	dir := t.TempDir()
	tlsFiles(t, dir)
	kp, _ := nkeys.CreateUser()
	pub, _ := kp.PublicKey()
	seed, _ := kp.Seed()
	seedFile := filepath.Join(dir, "user.nk")
	os.WriteFile(seedFile, seed, 0o600)
	stranger, _ := nkeys.CreateUser()
	strangerSeed, _ := stranger.Seed()
	strangerFile := filepath.Join(dir, "stranger.nk")
	os.WriteFile(strangerFile, strangerSeed, 0o600)
	c := natstest.Start(t, natstest.Options{NoJetStream: true, Extra: `
tls {
  cert_file: "` + filepath.Join(dir, "server.pem") + `"
  key_file: "` + filepath.Join(dir, "server-key.pem") + `"
  ca_file: "` + filepath.Join(dir, "ca.pem") + `"
  verify: true
}
authorization {
  users: [
    { user: alice, password: "s3cret" }
    { nkey: "` + pub + `" }
  ]
}`})
	url := c.URL()
	tlsOK := BusCredentials{CAFile: filepath.Join(dir, "ca.pem"), CertFile: filepath.Join(dir, "client.pem"), KeyFile: filepath.Join(dir, "client-key.pem")}
	with := func(b BusCredentials) BusCredentials {
		b.CAFile, b.CertFile, b.KeyFile = tlsOK.CAFile, tlsOK.CertFile, tlsOK.KeyFile
		return b
	}
	for _, ok := range []BusCredentials{with(BusCredentials{User: "alice", Password: "s3cret"}), with(BusCredentials{NKeyFile: seedFile})} {
		bus, err := JoinBus(url, ok, nil)
		if err != nil {
			t.Fatalf("join with %s: %v", ok.Method(), err)
		}
		nc, err := bus.Connect("test")
		if err != nil {
			t.Fatalf("connect with %s: %v", ok.Method(), err)
		}
		if !nc.TLSRequired() {
			t.Errorf("%s: the connection is not TLS", ok.Method())
		}
		nc.Close()
	}
	for _, bad := range []BusCredentials{
		{User: "alice", Password: "s3cret", CAFile: tlsOK.CAFile}, // no client certificate
		with(BusCredentials{User: "alice", Password: "wrong"}),
		with(BusCredentials{NKeyFile: strangerFile}),
		{User: "alice", Password: "s3cret"}, // the server's CA is not trusted
	} {
		var join *JoinError
		if _, err := JoinBus(url, bad, nil); !errors.As(err, &join) {
			t.Errorf("join with %s: %v, want a JoinError", bad.Method(), err)
		}
	}
	if err := (BusCredentials{CertFile: tlsOK.CertFile}).Check(); err == nil {
		t.Error("a certificate without its key passed Check")
	}
	if err := (BusCredentials{User: "a", NKeyFile: seedFile}).Check(); err == nil {
		t.Error("two methods passed Check")
	}
}

// Operator mode: a .creds file (user JWT and seed) joins; the user JWT's permissions are the
// watcher's grant, and the server refuses its forged AgentResult; no credentials, no entry.
func TestJoinWithCredsFile(t *testing.T) {
	const ns = "p1"
	dir := t.TempDir()
	op, _ := nkeys.CreateOperator()
	opPub, _ := op.PublicKey()
	opJWT, err := jwt.NewOperatorClaims(opPub).Encode(op)
	if err != nil {
		t.Fatal(err)
	}
	acc, _ := nkeys.CreateAccount()
	accPub, _ := acc.PublicKey()
	accJWT, err := jwt.NewAccountClaims(accPub).Encode(op)
	if err != nil {
		t.Fatal(err)
	}
	creds := func(kind CredKind) string {
		u, _ := nkeys.CreateUser()
		uPub, _ := u.PublicKey()
		claims := jwt.NewUserClaims(uPub)
		if g := GrantFor(kind, ns); !g.All {
			claims.Pub.Allow.Add(g.Publish...)
			claims.Sub.Allow.Add(g.Subscribe...)
		}
		userJWT, err := claims.Encode(acc)
		if err != nil {
			t.Fatal(err)
		}
		seed, _ := u.Seed()
		file, err := jwt.FormatUserConfig(userJWT, seed)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, string(kind)+".creds")
		os.WriteFile(path, file, 0o600)
		return path
	}
	opFile := filepath.Join(dir, "op.jwt")
	os.WriteFile(opFile, []byte(opJWT), 0o600)
	c := natstest.Start(t, natstest.Options{NoJetStream: true, Extra: `
operator: "` + opFile + `"
resolver: MEMORY
resolver_preload: {
  ` + accPub + `: "` + accJWT + `"
}`})
	url := c.URL()
	node := BusCredentials{CredsFile: creds(KindNode)}
	watcher := BusCredentials{CredsFile: creds(KindWatcher)}
	if _, err := JoinBus(url, node, nil); err != nil {
		t.Fatalf("join with a .creds file: %v", err)
	}
	if _, err := JoinBus(url, BusCredentials{}, nil); err == nil {
		t.Fatal("joined an operator-mode server without credentials")
	}
	forged, _ := messages.Encode(&messages.AgentResult{Handle: "h", Session: "s1", Status: messages.AgentDone, Summary: "forged"})
	if err := refusedOn(t, url, watcher, messages.InboxSubject(ns, "s1"), forged); err != nil {
		t.Fatalf("the watcher's forged AgentResult: %v", err)
	}
	nodeBus, _ := JoinBus(url, node, nil)
	nc, err := nodeBus.Connect("node")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	sub, _ := nc.SubscribeSync(messages.InboxSubject(ns, "s1"))
	nc.Publish(messages.InboxSubject(ns, "s1"), forged)
	if _, err := sub.NextMsg(testwait.Scale(10 * time.Second)); err != nil {
		t.Fatalf("the node's own publish to an inbox: %v", err)
	}
}
