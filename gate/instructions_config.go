package gate

import (
	"regexp"
	"strings"
)

// Configuration that switches off the reading agent's own checks: a
// profile, a directive block or a hooks file whose keys name the agent's
// confirmations, refusals, system prompt or reports and set them off
// (confirmations: never, honor_system_prompt: false, refusals: disabled,
// mention_redactions: false, mode: unrestricted, supersedes: operator,
// system). A finding documents a tool's settings; it does not hand its
// reader settings that disable the reader. No tuning finding holds such a
// key with such a value.

var (
	// reChecksOff sets off a key of the agent's checks or its principal's
	// instructions.
	reChecksOff = regexp.MustCompile(`(?m)^[\s"'{,-]*[\w.-]*(?:confirm\w*|approv\w*|refus\w*|honou?r_\w*|inherit\w*|safety\w*|guardrails?|ask_\w*|ask)["']?\s*[:=]\s*["']?(?:false|off|never|none|disabled?|no|0)\b|(?m)^[\s"'{,-]*(?:mode|profile|persona)["']?\s*[:=]\s*["']?(?:unrestricted|jailbreak|god|yolo)\b|(?m)^[\s"'{,-]*(?:supersedes|overrides|outranks|priority_over)["']?\s*[:=]\s*[^\n]*\b(?:operator|system|developer|user)\b|(?m)^[\s"'{,-]*[\w.-]*(?:replace|override|ignore)_system_prompt["']?\s*[:=]\s*["']?(?:true|yes|1)\b`)
	// reReportsOff sets off what the agent tells its user.
	reReportsOff = regexp.MustCompile(`(?m)^[\s"'{,-]*[\w.-]*(?:mention\w*|show_(?:output|diffs?|commands?|changes?)|disclos\w*|notify\w*|report\w*|audit\w*)["']?\s*[:=]\s*["']?(?:false|off|never|none|disabled?|no|0)\b`)
	// reAgentWord names an agent.
	reAgentWord = regexp.MustCompile(`\b(?:agents?|assistants?|ai|llms?|bots?|models?|claude|codex|copilot)\b|agent_|_agent|에이전트|어시스턴트|봇`)
)

// configKinds are the kinds of a text that hands its reader settings that
// switch its checks or its reports off, in a text about an agent; a line
// a write-up shows is not handed to anyone.
func configKinds(v *views) []string {
	if !reAgentWord.MatchString(v.all) {
		return nil
	}
	var out []string
	found := func(re *regexp.Regexp) bool {
		for _, loc := range re.FindAllStringIndex(v.all, 4) {
			if !v.shown[lineOf(v.all, loc[0]+strings.IndexFunc(v.all[loc[0]:loc[1]], func(r rune) bool { return r != '\n' }))] {
				return true
			}
		}
		return false
	}
	if found(reChecksOff) {
		out = append(out, InstructionOverride)
	}
	if found(reReportsOff) {
		out = append(out, InstructionConceal)
	}
	return out
}
