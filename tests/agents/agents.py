"""How each real agent CLI is installed, configured and run offline.

Each agent gets a scratch HOME (and XDG folders) per case, a work folder
holding the log the scripted turn reads, its model pointed at the mock on
127.0.0.1, and causegate registered the way a user registers it:
`causegate init --agent NAME` under that HOME. The facts here (flags,
environment, config keys) are what the CLIs needed when driven offline;
tests/agents/README.md says where each came from and what changes most.
"""
import json
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def load_versions(which="pinned"):
    with open(os.path.join(HERE, "versions.json"), encoding="utf-8") as f:
        table = json.load(f)
    agents = {k: v for k, v in table.items() if not k.startswith("_")}
    if which == "latest":
        for spec in agents.values():
            spec["version"] = "latest"
    return agents


def install_dir(cache, name, spec):
    return os.path.join(cache, f"{name}-{spec['version']}")


def agent_bin(cache, name, spec):
    return os.path.join(install_dir(cache, name, spec), "node_modules", ".bin", spec["bin"])


def install(cache, name, spec, log):
    """npm install of one pinned CLI into its own cache folder (kept between runs)."""
    target = install_dir(cache, name, spec)
    binary = agent_bin(cache, name, spec)
    # @latest is re-resolved each run; a pinned version installs once.
    if os.path.exists(binary) and spec["version"] != "latest":
        return binary
    os.makedirs(target, exist_ok=True)
    cmd = ["npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix", target,
           f"{spec['package']}@{spec['version']}"]
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log.write(result.stdout)
    if result.returncode != 0 or not os.path.exists(binary):
        raise RuntimeError(f"npm install {spec['package']}@{spec['version']} failed (log: {log.name})")
    return binary


def write_json(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)


def merge_json(path, doc):
    """Adds keys to a settings file causegate init may already have written."""
    current = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            current = json.load(f)

    def merge(into, extra):
        for key, value in extra.items():
            if isinstance(value, dict) and isinstance(into.get(key), dict):
                merge(into[key], value)
            else:
                into[key] = value
    merge(current, doc)
    write_json(path, current)


class Case:
    """One run's folders and environment."""

    def __init__(self, root, causegate, agent_bin_dir=""):
        self.root = root
        self.agent_bin_dir = agent_bin_dir
        self.home = os.path.join(root, "home")
        self.work = os.path.join(root, "work")
        self.state = os.path.join(root, "state")
        self.causegate = causegate
        for d in (self.home, self.work, self.state):
            os.makedirs(d, exist_ok=True)

    def base_env(self):
        return {
            "HOME": self.home,
            "USER": "tester",
            "PATH": ":".join(p for p in (self.agent_bin_dir, "/usr/local/bin:/usr/bin:/bin") if p),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "XDG_STATE_HOME": self.state,
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "NO_COLOR": "1",
            "CI": "1",
        }

    def doctor(self, env):
        """`causegate doctor` in the work folder: (exit code, output)."""
        result = subprocess.run([self.causegate, "doctor"], cwd=self.work, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, timeout=60)
        return result.returncode, result.stdout

    def init(self, agent):
        """`causegate init` as a user runs it; returns its stdout."""
        result = subprocess.run([self.causegate, "init", "--agent", agent], cwd=self.work,
                                env=self.base_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"causegate init --agent {agent} exited {result.returncode}: {result.stdout}")
        return result.stdout


class ClaudeCode:
    name = "claude-code"

    def configure(self, case, port, registration, daemon_url=None):
        env = case.base_env()
        env.update({
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}",
            "ANTHROPIC_API_KEY": "sk-ant-mock-0000000000000000000000",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
        })
        self.extra_args = []
        settings = os.path.join(case.home, ".claude", "settings.json")
        if registration == "init":
            case.init(self.name)
        elif registration == "server":
            case.init(self.name)
            with open(settings, encoding="utf-8") as f:
                doc = json.load(f)
            for groups in doc["hooks"].values():
                for group in groups:
                    for hook in group["hooks"]:
                        hook["args"] += ["--server", daemon_url]
            write_json(settings, doc)
        elif registration == "http":
            # examples/claude-settings-http.json, pointed at this run's daemon.
            with open(os.path.join(HERE, "..", "..", "examples", "claude-settings-http.json"), encoding="utf-8") as f:
                doc = json.load(f)
            for groups in doc["hooks"].values():
                for group in groups:
                    for hook in group["hooks"]:
                        hook["url"] = daemon_url + "/hook"
            write_json(settings, doc)
            env["CAUSEGATE_TOKEN"] = "agents-suite-token"
        elif registration == "plugin":
            plugin = os.path.join(case.root, "plugin")
            shutil.copytree(os.path.join(HERE, "..", "..", "plugin"), plugin)
            shutil.copy(case.causegate, os.path.join(plugin, "bin", "causegate"))
            self.extra_args = ["--plugin-dir", plugin]
        else:
            raise ValueError(registration)
        return env

    def command(self, binary, prompt, spec):
        if spec.output == "stream-json":
            output = ["--output-format", "stream-json", "--verbose", "--include-hook-events"]
        else:
            output = ["--output-format", spec.output]
        return [binary, "-p", prompt, "--model", "claude-sonnet-4-5", "--allowedTools", "Bash", "Agent", "Task",
                "Read", *output, *self.extra_args]


class Codex:
    name = "codex"

    def configure(self, case, port, registration, daemon_url=None):
        config = os.path.join(case.home, ".codex", "config.toml")
        os.makedirs(os.path.dirname(config), exist_ok=True)
        with open(config, "w", encoding="utf-8") as f:
            f.write(f'''model = "gpt-5.1-codex"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
''')
        case.init(self.name)
        subprocess.run(["git", "init", "-q", case.work], check=True)
        env = case.base_env()
        env["CODEX_HOME"] = os.path.join(case.home, ".codex")
        return env

    def command(self, binary, prompt, spec):
        return [binary, "exec", "--skip-git-repo-check", "--json", prompt]


class Gemini:
    name = "gemini"

    def configure(self, case, port, registration, daemon_url=None):
        case.init(self.name)
        merge_json(os.path.join(case.home, ".gemini", "settings.json"), {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": False},
            "general": {"enableAutoUpdate": False},
        })
        env = case.base_env()
        env.update({"GEMINI_API_KEY": "mock-key", "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}"})
        return env

    def follow_doctor(self, case, env, report):
        """Gemini loads hooks only in a trusted folder: doctor must say so,
        and trusting the folder the way it says must be enough."""
        if "not a trusted folder" not in report:
            return "doctor did not report the untrusted folder"
        write_json(os.path.join(case.home, ".gemini", "trustedFolders.json"), {case.work: "TRUST_FOLDER"})
        return None

    def command(self, binary, prompt, spec):
        return [binary, "-m", "gemini-2.5-pro", "--yolo", "-o", "stream-json", "-p", prompt]


def share_copilot_cache(home, shared_cache):
    """Copilot unpacks ~235 MB into ~/.cache/copilot on its first start: every
    scratch HOME links one unpacked copy."""
    os.makedirs(os.path.join(home, ".cache"), exist_ok=True)
    os.makedirs(shared_cache, exist_ok=True)
    os.symlink(shared_cache, os.path.join(home, ".cache", "copilot"))


class Copilot:
    name = "copilot"

    def __init__(self, shared_cache):
        self.shared_cache = shared_cache

    def configure(self, case, port, registration, daemon_url=None):
        case.init(self.name)
        share_copilot_cache(case.home, self.shared_cache)
        env = case.base_env()
        env.update({
            "COPILOT_OFFLINE": "true",
            "COPILOT_AUTO_UPDATE": "false",
            "COPILOT_PROVIDER_BASE_URL": f"http://127.0.0.1:{port}/v1",
            "COPILOT_PROVIDER_API_KEY": "mock-key",
            "COPILOT_MODEL": "gpt-4.1",
        })
        self.log_dir = os.path.join(case.root, "copilot-logs")
        return env

    def command(self, binary, prompt, spec):
        return [binary, "--no-auto-update", "--disable-client-telemetry", "--allow-all-tools", "--no-ask-user",
                "--output-format", "json", "--log-dir", self.log_dir, "--trust-folder", "-p", prompt]
