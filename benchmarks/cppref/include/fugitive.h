// gamelib's stand-in for the reference's fugitive.h: the game's numbers and phases that the
// belief reads, written from the rules (cards 0-42, three draw piles 4-14 / 15-28 / 29-41), and
// none of the game classes.
#ifndef GAMELIB_CPPREF_FUGITIVE_H_
#define GAMELIB_CPPREF_FUGITIVE_H_

#include "open_spiel/spiel.h"

namespace open_spiel {
namespace fugitive {

inline constexpr Player kFugitivePlayer = 0;
inline constexpr Player kMarshalPlayer = 1;
inline constexpr int kMinCard = 1;
inline constexpr int kMaxCard = 42;
// Action numbers: a card is its number, a pile is 43 + its index, then "done".
inline constexpr Action kPassAction = 0;
inline constexpr Action kFirstPileAction = 43;
inline constexpr Action kLastPileAction = 45;
inline constexpr Action kCommitAction = 46;

// The draw pile (0, 1, 2) a card comes from, -1 for the cards dealt at the start.
inline int PileForCard(int card) {
  if (card < 4 || card > 41) return -1;
  return card <= 14 ? 0 : card <= 28 ? 1 : 2;
}

// Footprints on a card played as a sprint: two on even cards, one on odd ones (1-41).
inline int SprintValue(int card) {
  SPIEL_CHECK_TRUE(card >= kMinCard && card < kMaxCard);
  return card % 2 == 0 ? 2 : 1;
}

enum class Phase {
  kSetupChance,
  kFugitiveDrawChoice,
  kFugitiveDrawChance,
  kFugitiveHideout,
  kFugitiveSprint,
  kMarshalDrawChoice,
  kMarshalDrawChance,
  kMarshalGuess,
  kManhuntGuess,
  kTerminal,
};

class FugitiveState;

}  // namespace fugitive
}  // namespace open_spiel

#endif  // GAMELIB_CPPREF_FUGITIVE_H_
