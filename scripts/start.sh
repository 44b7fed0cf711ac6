#!/usr/bin/env bash
# npm start: builds Scalpel, installs it into a private code-server (VS Code in the browser) and serves it with
# the sample workspace (a copy of playground/ in .cache/playground-workspace, kept between runs) on
# http://127.0.0.1:${PORT:-8080}. Ctrl-C stops it.
set -euo pipefail

# shellcheck source=vscode-host/env.sh
source "$(dirname "${BASH_SOURCE[0]}")/vscode-host/env.sh"
cd "$VSCODE_HOST_REPO_ROOT"

port="${PORT:-8080}"
state_dir="$VSCODE_HOST_REPO_ROOT/.cache/start"
workspace="$VSCODE_HOST_REPO_ROOT/.cache/playground-workspace"
vsix="$VSCODE_HOST_REPO_ROOT/.cache/scalpel.vsix"
vsce_log="$state_dir/vsce.log"

bash scripts/vscode-host/setup.sh
npm run --silent build

mkdir -p "$state_dir"/{user-data,extensions,config,data,cache}
: >"$state_dir/code-server.yaml"
if [[ ! -d "$workspace" ]]; then
  cp -r playground "$workspace"
fi
user_settings="$state_dir/user-data/User/settings.json"
if [[ ! -f "$user_settings" ]]; then
  mkdir -p "$(dirname "$user_settings")"
  # The workspace sits inside this repo's .cache; without this VS Code offers to open the repo itself.
  echo '{ "git.openRepositoryInParentFolders": "never" }' >"$user_settings"
fi

# code-server, its extension host and its CLI write under ~/.config, ~/.local and ~/.cache: keep that in the repo's
# cache. IPC socket paths must stay under 108 characters, so TMPDIR is short and outside the repo.
tmp_dir="$(mktemp -d /tmp/scalpel-start-XXXXXX)"
export XDG_CONFIG_HOME="$state_dir/config" XDG_DATA_HOME="$state_dir/data" XDG_CACHE_HOME="$state_dir/cache"
export TMPDIR="$tmp_dir"

code_server_args=(
  --config="$state_dir/code-server.yaml"
  --user-data-dir="$state_dir/user-data"
  --extensions-dir="$state_dir/extensions"
)
url="http://127.0.0.1:$port/?folder=$workspace"
extra_args=()

# vsce asks for confirmation when the manifest has no repository or there is no LICENSE; nobody is there to answer.
# Without a repository it also refuses README's relative links, which matter only on a marketplace page.
if npx --no-install vsce package --no-dependencies --allow-missing-repository --skip-license \
  --no-rewrite-relative-links -o "$vsix" \
  </dev/null >"$vsce_log" 2>&1; then
  "$NODE24_BIN" "$CODE_SERVER_ENTRY" "${code_server_args[@]}" --force --install-extension "$vsix" \
    >"$state_dir/install.log" 2>&1 || {
    echo "start: installing $vsix into code-server failed:" >&2
    cat "$state_dir/install.log" >&2
    exit 1
  }
else
  echo "start: packaging the extension failed, so it is loaded from this folder as a development extension:" >&2
  grep -E 'ERROR|WARNING' "$vsce_log" | sed 's/\x1b\[[0-9;]*m//g; s/^/  /' >&2 || tail -n 5 "$vsce_log" >&2
  # The uninstalled extension is loaded through the workbench's `payload` query parameter, which the built
  # workbench honours only with the smoke-test driver enabled. Remove a stale installed copy so only one loads.
  "$NODE24_BIN" "$CODE_SERVER_ENTRY" "${code_server_args[@]}" --uninstall-extension scalpel-dev.scalpel \
    >/dev/null 2>&1 || true
  extra_args+=(--vscode-option=enable-smoke-test-driver)
  payload="[[\"extensionDevelopmentPath\",\"vscode-remote://remote$VSCODE_HOST_REPO_ROOT\"]]"
  url="$url&payload=$(node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "$payload")"
fi

# Its own process group, so stopping it also stops the extension host and file watchers it started.
setsid "$NODE24_BIN" "$CODE_SERVER_ENTRY" "${code_server_args[@]}" "${extra_args[@]}" \
  --bind-addr="127.0.0.1:$port" \
  --auth=none \
  --disable-telemetry \
  --disable-update-check \
  --disable-getting-started-override \
  --disable-workspace-trust \
  "$workspace" &
server_pid=$!

stop_server() {
  kill -TERM -- "-$server_pid" 2>/dev/null || true
  sleep 1
  kill -KILL -- "-$server_pid" 2>/dev/null || true
  rm -rf "$tmp_dir"
}
trap stop_server EXIT
trap 'exit 130' INT TERM

for _ in $(seq 1 150); do
  if node -e 'fetch(process.argv[1]).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))' \
    "http://127.0.0.1:$port/healthz"; then
    echo
    echo "Scalpel is running in VS Code at:"
    echo "  $url"
    echo "Press Ctrl-C to stop."
    echo
    wait "$server_pid"
    exit $?
  fi
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "start: code-server exited during start-up (is port $port in use? set PORT=...)" >&2
    exit 1
  fi
  sleep 0.2
done
echo "start: code-server did not answer on port $port within 30 s" >&2
exit 1
