import { describe, expect, it } from "vitest";
import { agentPath } from "./agent-path.ts";
import { shellPaths } from "./shell-paths.ts";

describe("shellPaths", () => {
  it("splits commands on operators, takes redirections and copies as writes, keeps programs apart; a bare word is no path", () => {
    expect(
      shellPaths("cat /etc/hosts > out.txt && cp wrap.sh ~/.local/bin/python3 2>&1 | tee -a logs/run.log"),
    ).toEqual({
      operands: ["/etc/hosts", "~/.local/bin/python3", "logs/run.log"],
      writes: ["out.txt", "~/.local/bin/python3", "logs/run.log"],
    });
  });

  it("keeps quoted paths whole, variables as written, and ignores assignments, flags and bare words", () => {
    expect(shellPaths(`FOO=1 /usr/bin/python3 -m pytest "tests/a b.py" -k add $HOME/notes < input/data.txt`)).toEqual({
      operands: ["input/data.txt", "tests/a b.py", "$HOME/notes"],
      writes: [],
    });
    expect(shellPaths("sed -i 's/a/b/' src/app.py && rm -rf build/").writes).toEqual(["src/app.py", "build/"]);
    expect(shellPaths(`grep -rn "/api/v1" src/ && echo "see /etc/x"`).operands).toEqual(["src/"]);
  });

  it("reads each line as a command, leaves heredoc bodies out, and joins continued lines", () => {
    const script = [
      "cat > tests/test_new.py <<'EOF'",
      "open('/etc/config')",
      "  /usr/bin/env x",
      "EOF",
      "ls /srv \\",
      "  /opt",
    ];
    expect(shellPaths(script.join("\n"))).toEqual({
      operands: ["/srv", "/opt"],
      writes: ["tests/test_new.py"],
    });
  });
});

describe("agentPath", () => {
  const folders = { workspace: "/w", own: ["/h"] };
  it("places paths in the workspace, the agent's own folders, or outside", () => {
    expect(agentPath("./src/a.ts", folders)).toEqual({ where: "workspace", path: "src/a.ts" });
    expect(agentPath("/w/src/", folders)).toEqual({ where: "workspace", path: "src" });
    expect(agentPath("../other/x", folders)).toEqual({ where: "outside", path: "/other/x" });
    expect(agentPath("/h/.cache/x", folders)).toEqual({ where: "own" });
    expect(agentPath("~/x", folders)).toEqual({ where: "own" });
    expect(agentPath("$PWD/src", folders)).toEqual({ where: "workspace", path: "src" });
    expect(agentPath("$SECRET_DIR/x", folders)).toEqual({ where: "unknown" });
    expect(agentPath("/dev/null", folders)).toEqual({ where: "own" });
    expect(agentPath("/wx/y", folders)).toEqual({ where: "outside", path: "/wx/y" });
  });
});
