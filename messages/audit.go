package messages

// AuditVerdict is the outcome of one /audit check.
type AuditVerdict string

// The verdicts of an audit check: ok holds, warn is worth a look, fail is a broken invariant.
const (
	AuditOK   AuditVerdict = "ok"
	AuditWarn AuditVerdict = "warn"
	AuditFail AuditVerdict = "fail"
)

// AuditCheck is one check of /audit: its name (pairing, file truth, registry, goal, store,
// bus), its verdict and one line of evidence.
type AuditCheck struct {
	Name     string       `json:"name"`
	Verdict  AuditVerdict `json:"verdict"`
	Evidence string       `json:"evidence"`
}

// AuditData is the payload of audit.finished: the session's local invariant checks, run by
// /audit without a model call.
type AuditData struct {
	Checks []AuditCheck `json:"checks"`
}
