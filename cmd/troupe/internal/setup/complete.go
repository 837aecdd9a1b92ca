package setup

import (
	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
)

// Completer is what Tab completes in the chat of a session on model: the session's commands
// with their fixed words, the known models after /model, the project's and the user's skills
// after /skills, the prompt modes after /prompt, and @paths under root.
func Completer(root string, getenv func(string) string, model string) ui.Completer {
	skills, _ := config.LoadSkills(config.SkillDirs(root, config.UserDir(getenv))) // a broken one: the session warns
	var names []string
	for _, sk := range skills {
		names = append(names, sk.Name)
	}
	modes, _ := config.LoadPromptModes(config.PromptModeDirs(root, config.UserDir(getenv))...)
	var modeNames []string
	for _, pm := range modes {
		modeNames = append(modeNames, pm.Name)
	}
	var cmds []ui.Command
	for _, c := range actors.Commands() {
		args := c.Args
		switch c.Name {
		case "model":
			args = llm.KnownModels(getenv, model)
		case "skills":
			args = names
		case "prompt":
			args = modeNames
		}
		cmds = append(cmds, ui.Command{Name: c.Name, Args: args})
	}
	return ui.Completer{Commands: cmds, Root: root}
}
