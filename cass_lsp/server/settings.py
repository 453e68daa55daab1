"""Settings from all three places clients put them: initializationOptions, a pushed
workspace/didChangeConfiguration, and the pulled workspace/configuration (Neovim 0.7 pushes nothing
by itself and VS Code pushes `null`, so the server asks as well)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from lsprotocol import types

from cass_lsp.core import user_settings
from cass_lsp.core.settings import SECTION
from cass_lsp.server import trust
from cass_lsp.server.app import CassServer
from cass_lsp.server.convert import workspace_roots

log = logging.getLogger(__name__)

PULL_TIMEOUT_SECONDS = 5.0


def _section(value: Any) -> Any:
    """Clients send either the `cass` object itself or an object holding it."""
    if isinstance(value, dict) and isinstance(value.get(SECTION), dict):
        return value[SECTION]
    return value


def decide_trust(ls: CassServer) -> None:
    """Trust from what the client said at initialize and the workspace folders it has now."""
    trusted, reason = trust.decide(ls.client_trust, workspace_roots(ls), ls.user_settings)
    if (trusted, reason) != (ls.workspace_trusted, ls.trust_reason):
        log.info("workspace trusted: %s (%s)", trusted, reason)
        ls.set_trust(trusted, reason)


def _client_pulls(ls: CassServer) -> bool:
    workspace = ls.client_capabilities.workspace
    return bool(workspace and workspace.configuration)


async def pull_configuration(ls: CassServer) -> None:
    if not _client_pulls(ls):
        return
    params = types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
    try:
        result = await asyncio.wait_for(ls.workspace_configuration_async(params), PULL_TIMEOUT_SECONDS)
    except (TimeoutError, Exception) as error:  # a client that fails to answer must not stop the server
        log.warning("workspace/configuration failed: %r", error)
        return
    if result:
        ls.update_settings("workspace", result[0])


def register(server: CassServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: CassServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict):  # the trust flag sits beside the settings, it is not one
            ls.client_trust = options.get(trust.TRUST_KEY)
            options = {key: value for key, value in options.items() if key != trust.TRUST_KEY}
        ls.user_settings, problem = user_settings.read()
        if problem:
            ls.show_message(f"cass-lsp: {problem}", types.MessageType.Warning)
        decide_trust(ls)
        ls.update_settings("initializationOptions", _section(options))
        for hook in ls.on_initialize:
            hook()

    @server.feature(types.INITIALIZED)
    async def initialized(ls: CassServer, params: types.InitializedParams) -> None:
        await pull_configuration(ls)
        for hook in ls.on_initialized:
            hook()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def did_change_workspace_folders(ls: CassServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        decide_trust(ls)  # a folder outside trustedFolders makes the whole workspace untrusted

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: CassServer, params: types.DidChangeConfigurationParams) -> None:
        pushed = _section(params.settings)
        if isinstance(pushed, dict) and pushed:
            ls.update_settings("workspace", pushed)
        await pull_configuration(ls)
