package daemon

import "github.com/skiff-ai/skiff/internal/i18n"

// The sentences skiffd says to the user about the agents it hosts (their French is in
// ui/_locales); the panel and the web client render them in the user's language.
var (
	sayNoSuchAgent   = i18n.Sentence{Key: "errSkiffdNoSuchAgent", English: "skiffd knows no agent called “$1”: `skiffd agents` lists them."}
	sayChatHasOne    = i18n.Sentence{Key: "errSkiffdChatHasSession", English: "This chat has a session with its agent already."}
	sayOpenElsewhere = i18n.Sentence{Key: "errSkiffdSessionOpen", English: "That session is open in another chat: open that chat instead."}
	sayNotRunning    = i18n.Sentence{Key: "errSkiffdAgentNotRunning", English: "This chat's agent is not running in skiffd (skiffd restarted?): send again to start it."}
	sayNoPictures    = i18n.Sentence{Key: "errSkiffdAgentNoPictures", English: "$1 does not take pictures, so “$2” cannot go with the message: remove it and send again."}
	sayAgentStopped  = i18n.Sentence{Key: "errSkiffdAgentStopped", English: "This chat's agent stopped: send again to start it."}
)
