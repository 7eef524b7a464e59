// gamelib's stand-in for OpenSpiel's spiel.h: the type names the reference belief's header
// mentions. The game classes are only declared (the replay that needs them is trimmed).
#ifndef GAMELIB_CPPREF_SPIEL_H_
#define GAMELIB_CPPREF_SPIEL_H_

#include <cstdint>

#include "open_spiel/spiel_utils.h"

namespace open_spiel {

using Player = int;
using Action = std::int64_t;
inline constexpr Player kChancePlayerId = -1;

class State;
class Game;

}  // namespace open_spiel

#endif  // GAMELIB_CPPREF_SPIEL_H_
