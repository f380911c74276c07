#include "core/mcp/mcplog.h"

Q_LOGGING_CATEGORY(lcMcp, "ciu.mcp")
Q_LOGGING_CATEGORY(lcMcpHttp, "ciu.mcp.http")
Q_LOGGING_CATEGORY(lcMcpTools, "ciu.mcp.tools")
