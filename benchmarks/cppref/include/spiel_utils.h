// gamelib's stand-in for OpenSpiel's spiel_utils.h, only what the reference belief needs to
// compile outside OpenSpiel: checks that throw (the driver reports them per position).
#ifndef GAMELIB_CPPREF_SPIEL_UTILS_H_
#define GAMELIB_CPPREF_SPIEL_UTILS_H_

#include <stdexcept>
#include <string>

namespace open_spiel {

[[noreturn]] inline void SpielFatalError(const std::string& message) {
  throw std::runtime_error(message);
}

// A down_cast the way OpenSpiel spells it (unused once the replay is trimmed).
template <typename To, typename From>
inline To down_cast(From& from) {
  return static_cast<To>(from);
}

}  // namespace open_spiel

#define GAMELIB_CHECK(condition, text)                                       \
  do {                                                                       \
    if (!(condition)) {                                                      \
      ::open_spiel::SpielFatalError(std::string(__FILE__) + ":" +            \
                                    std::to_string(__LINE__) + ": " + text); \
    }                                                                        \
  } while (false)

#define SPIEL_CHECK_TRUE(x) GAMELIB_CHECK((x), #x)
#define SPIEL_CHECK_FALSE(x) GAMELIB_CHECK(!(x), "not " #x)
#define SPIEL_CHECK_EQ(a, b) GAMELIB_CHECK((a) == (b), #a " == " #b)
#define SPIEL_CHECK_NE(a, b) GAMELIB_CHECK((a) != (b), #a " != " #b)
#define SPIEL_CHECK_LT(a, b) GAMELIB_CHECK((a) < (b), #a " < " #b)
#define SPIEL_CHECK_LE(a, b) GAMELIB_CHECK((a) <= (b), #a " <= " #b)
#define SPIEL_CHECK_GT(a, b) GAMELIB_CHECK((a) > (b), #a " > " #b)
#define SPIEL_CHECK_GE(a, b) GAMELIB_CHECK((a) >= (b), #a " >= " #b)

// Debug-only checks, off as in an OpenSpiel release build.
#define GAMELIB_UNCHECKED(a, b) \
  do {                          \
  } while (false)
#define SPIEL_DCHECK_TRUE(x) GAMELIB_UNCHECKED(x, x)
#define SPIEL_DCHECK_FALSE(x) GAMELIB_UNCHECKED(x, x)
#define SPIEL_DCHECK_EQ(a, b) GAMELIB_UNCHECKED(a, b)
#define SPIEL_DCHECK_NE(a, b) GAMELIB_UNCHECKED(a, b)
#define SPIEL_DCHECK_LT(a, b) GAMELIB_UNCHECKED(a, b)
#define SPIEL_DCHECK_LE(a, b) GAMELIB_UNCHECKED(a, b)
#define SPIEL_DCHECK_GT(a, b) GAMELIB_UNCHECKED(a, b)
#define SPIEL_DCHECK_GE(a, b) GAMELIB_UNCHECKED(a, b)

#endif  // GAMELIB_CPPREF_SPIEL_UTILS_H_
