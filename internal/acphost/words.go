package acphost

import "github.com/skiff-ai/skiff/internal/i18n"

// The sentences an agent's host says to the user (their French is in ui/_locales): its start,
// its failures, and the shared folder's refusals. The agent itself reads their English.
var (
	sayNoCommand     = i18n.Sentence{Key: "errAgentNoCommand", English: "The agent $1 has no command in skiffd's configuration."}
	sayNotInstalled  = i18n.Sentence{Key: "errAgentNotInstalled", English: "$1 is not installed: $2 was not found on PATH."}
	sayCouldNotStart = i18n.Sentence{Key: "errAgentCouldNotStart", English: "$1 could not start: $2."}
	sayDidNotStart   = i18n.Sentence{Key: "errAgentDidNotStart", English: "$1 did not start: $2."}
	sayNoAnswer      = i18n.Sentence{Key: "errAgentNoAnswer", English: "$1 did not answer Skiff's first message within $2 s: is its command one that speaks ACP (an agent's ACP adapter, not the program itself)?"}
	sayACPVersion    = i18n.Sentence{Key: "errAgentACPVersion", English: "$1 speaks ACP version $2; Skiff speaks version $3."}
	sayStopped       = i18n.Sentence{Key: "errAgentStopped", English: "$1 stopped ($2)."}
	sayStoppedLog    = i18n.Sentence{Key: "errAgentStoppedLog", English: "$1 stopped ($2). The end of its log: $3"}
	sayClosed        = i18n.Sentence{Key: "errAgentClosed", English: "$1 closed its connection."}
	sayClosedLog     = i18n.Sentence{Key: "errAgentClosedLog", English: "$1 closed its connection. The end of its log: $2"}
	sayNoReopen      = i18n.Sentence{Key: "errAgentNoReopen", English: "$1 could not reopen that session: $2."}
	sayCannotReopen  = i18n.Sentence{Key: "errAgentCannotReopen", English: "it offers neither session/load nor session/resume"}
	sayNoSession     = i18n.Sentence{Key: "errAgentNoSession", English: "$1 could not open a session: $2."}
	sayNoList        = i18n.Sentence{Key: "errAgentNoList", English: "$1 could not list its sessions: $2."}
	sayTurnFailed    = i18n.Sentence{Key: "errAgentTurnFailed", English: "$1 failed: $2."}
	sayNoMode        = i18n.Sentence{Key: "errAgentNoMode", English: "$1 did not change its mode: $2."}
	sayNoOption      = i18n.Sentence{Key: "errAgentNoOption", English: "$1 did not change $2: $3."}
	saySignIn        = i18n.Sentence{Key: "errAgentSignIn", English: "$1 needs you to sign in: run it once in a terminal."}
	sayNoChatSession = i18n.Sentence{Key: "errAgentNoChatSession", English: "$1 has no session for this chat."}

	sayNoFolder      = i18n.Sentence{Key: "errFolderNone", English: "No folder is shared with agents: choose one with `skiffd agents folder DIR`."}
	sayFolderClosed  = i18n.Sentence{Key: "errFolderCannotOpen", English: "The shared folder $1 cannot be opened: $2."}
	sayOutside       = i18n.Sentence{Key: "errFolderOutside", English: "$1 is outside the folder shared with agents ($2)."}
	sayHidden        = i18n.Sentence{Key: "errFolderHidden", English: "$1 is hidden from agents (dot-files and .git are not shared)."}
	sayNotRegular    = i18n.Sentence{Key: "errFolderNotAFile", English: "$1 is not a regular file."}
	sayTooBigToRead  = i18n.Sentence{Key: "errFolderReadTooBig", English: "$1 is $2 bytes, over the $3-byte limit for agents."}
	sayTooBigToWrite = i18n.Sentence{Key: "errFolderWriteTooBig", English: "The content for $1 is $2 bytes, over the $3-byte limit for agents."}
	sayNoSuchFile    = i18n.Sentence{Key: "errFolderNoSuchFile", English: "$1 does not exist."}
	sayNoAccess      = i18n.Sentence{Key: "errFolderNoAccess", English: "$1 cannot be accessed (permission denied)."}
	sayLeadsOutside  = i18n.Sentence{Key: "errFolderLeadsOutside", English: "$1 leads outside the folder shared with agents."}
)
