#include "core/knowledge/knowledgelog.h"

Q_LOGGING_CATEGORY(lcCorrections, "ciu.corrections")
