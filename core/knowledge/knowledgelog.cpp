#include "core/knowledge/knowledgelog.h"

Q_LOGGING_CATEGORY(lcCorrections, "ciu.corrections")
Q_LOGGING_CATEGORY(lcShortcuts, "ciu.shortcuts")
Q_LOGGING_CATEGORY(lcZoneMemory, "ciu.knowledge.zonememory")
Q_LOGGING_CATEGORY(lcTaskMemory, "ciu.knowledge.tasks")
