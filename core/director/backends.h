#pragma once

#include "core/director/directortypes.h"
#include "core/director/planbackend.h"

#include <memory>

namespace ciu {

// The planner for a task's options: the local planner for "local" (or no provider), else the zone-level
// or classic model loop over the configured provider. The key comes from the environment
// (ANTHROPIC_API_KEY / OPENAI_API_KEY) or the keychain (see providers/keystore.h); without one the model
// providers refuse with a clear error and nothing is sent.
std::unique_ptr<PlanBackend> createPlanBackend(const DirectorOptions& options, QString* error);

// The provider a task would use ("local" when no key is configured): --provider's default.
QString defaultProviderName();

} // namespace ciu
