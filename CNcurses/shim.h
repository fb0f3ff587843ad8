#ifndef RIGBOOK_CNCURSES_SHIM_H
#define RIGBOOK_CNCURSES_SHIM_H

// SwiftPM drops -D_XOPEN_SOURCE from pkg-config, which hides the wide-character API.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <langinfo.h>
#include <ncursesw/curses.h>

// Globals Swift 6 rejects as shared mutable state, and macros it cannot import.
static inline WINDOW *rb_stdscr(void) { return stdscr; }
static inline int rb_lines(void) { return LINES; }
static inline int rb_cols(void) { return COLS; }
static inline int rb_colors(void) { return COLORS; }
static inline int rb_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int rb_key_f(int n) { return KEY_F(n); }
static inline int rb_wcwidth(wchar_t c) { return wcwidth(c); }

// terminfo strings for writing frames directly (nil when the terminal lacks one); tiparm is variadic.
static inline const char *rb_tigetstr(const char *name) {
    char *value = tigetstr(name);
    return value == (char *)-1 ? 0 : value;
}
static inline int rb_tigetflag(const char *name) { return tigetflag(name) > 0; }
static inline const char *rb_tiparm1(const char *cap, int a) { return tiparm(cap, a); }
static inline const char *rb_tiparm2(const char *cap, int a, int b) { return tiparm(cap, a, b); }

static inline unsigned int rb_a_normal(void) { return A_NORMAL; }
static inline unsigned int rb_a_bold(void) { return A_BOLD; }
static inline unsigned int rb_a_dim(void) { return A_DIM; }
static inline unsigned int rb_a_reverse(void) { return A_REVERSE; }
static inline unsigned int rb_a_underline(void) { return A_UNDERLINE; }

#endif
