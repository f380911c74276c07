#include "core/director/directorlog.h"

Q_LOGGING_CATEGORY(lcDirector, "ciu.director")
Q_LOGGING_CATEGORY(lcLocalPlanner, "ciu.director.local")
Q_LOGGING_CATEGORY(lcModelPlanner, "ciu.director.model")
