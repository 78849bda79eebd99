// Replaced by the Claude Code adapter.
