#pragma once

namespace ciu {
// Registers the model's types for queued connections. Call once before starting workers.
void registerMetaTypes();
} // namespace ciu
