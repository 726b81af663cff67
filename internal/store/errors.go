package store

import "github.com/skiff-ai/skiff/internal/i18n"

// The store's errors are written for the user (their French is in ui/_locales): a run whose
// save is refused, or a call that meets one, says it as a sentence, however it was wrapped.
var (
	sayNoChat      = i18n.Sentence{Key: "errNoChat", English: "This chat no longer exists; it may have been deleted in another window."}
	sayNoWorkflow  = i18n.Sentence{Key: "errNoWorkflow", English: "This workflow no longer exists; it may have been deleted in another window."}
	sayNoSchedule  = i18n.Sentence{Key: "errNoSchedule", English: "This schedule no longer exists; it may have been deleted in another window."}
	sayNoMemory    = i18n.Sentence{Key: "errNoMemory", English: "This memory no longer exists; it may have been deleted in another window."}
	sayNoPolicy    = i18n.Sentence{Key: "errNoPolicy", English: "This permission is no longer there; it may have been revoked in another window."}
	sayMemoryFull  = i18n.Sentence{Key: "errMemoryFull", English: "Skiff keeps the chats of incognito windows in memory, and that memory is full (10 MB). Delete some of them in History, or close the incognito windows, which drops them all."}
	sayStorageFull = i18n.Sentence{Key: "errStorageFull", English: "Skiff's storage is full. Delete old chats in History (export them first if you want to keep them) and try again."}
	sayNewerSchema = i18n.Sentence{Key: "errNewerSchema", English: "Your chats were saved by a newer version of Skiff. Update Skiff to open them."}
)

var (
	// ErrNotFound is returned for a session id that does not exist (or was deleted).
	ErrNotFound = sayNoChat.Error()
	// ErrNoWorkflow is returned for a workflow id that does not exist.
	ErrNoWorkflow = sayNoWorkflow.Error()
	// ErrNoSchedule is returned for a schedule id that does not exist.
	ErrNoSchedule = sayNoSchedule.Error()
	// ErrNoMemory is returned for a memory id that does not exist.
	ErrNoMemory = sayNoMemory.Error()
	// ErrNoPolicy is returned when revoking a policy that does not exist.
	ErrNoPolicy = sayNoPolicy.Error()
	// ErrQuota is wrapped by KV implementations when storage is full.
	ErrQuota = sayStorageFull.Error()
	// ErrNewerSchema is returned by Open for data written by a newer Skiff.
	ErrNewerSchema = sayNewerSchema.Error()
	// ErrMemoryFull: the memory that keeps the private chats is full (chrome.storage.session
	// holds 10 MB). It is an ErrQuota too, and says so as its own sentence.
	ErrMemoryFull error = memoryFull{sayMemoryFull.Error()}
)

type memoryFull struct{ said error }

func (e memoryFull) Error() string   { return e.said.Error() }
func (e memoryFull) Unwrap() []error { return []error{e.said, ErrQuota} }
