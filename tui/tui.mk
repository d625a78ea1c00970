# tui/: the ncurses front end (build/cudalings-tui) and its tests.
# Included by the top-level Makefile; uses its variables and pattern rules.

TUI_SRCS := $(wildcard tui/*.c)
TUI_OBJS := $(TUI_SRCS:%.c=$(B)/%.o)
# The modules that know nothing of curses: the unit tests link them without a terminal.
TUI_PURE := doc entity highlight markdown grader_json workbook report proc grade watch hint source
# the progress state and the solution markers are the grader's too (common/)
TUI_PURE_OBJS := $(TUI_PURE:%=$(B)/tui/%.o) $(COMMON_OBJS) $(LIB_OBJS)
TUI_LIBS := -lncursesw -lmd4c -lcjson -lm

all: $(B)/cudalings-tui

$(B)/cudalings-tui: $(TUI_OBJS) $(COMMON_OBJS) $(LIB_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(TUI_LIBS)

.PHONY: tui
## tui: open the workbook
tui: $(B)/cudalings $(B)/cudalings-tui $(SIM_BUILT) prepare
	@$(B)/cudalings-tui

TUI_TEST_SRCS := $(wildcard tests/tui/unit/*.c)
TUI_TEST_OBJS := $(TUI_TEST_SRCS:%.c=$(B)/%.o)

$(B)/tests/tui-unit: $(TUI_TEST_OBJS) $(TUI_PURE_OBJS)
	$(call msg,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lcriterion -lmd4c -lcjson -lm

TEST_PROGRAMS += $(B)/tests/tui-unit
# in tmux: every screen against golden files (a fake grader), then a new
# student's walk with the real grader on the simulator
TEST_SCRIPTS += tests/tui/e2e.sh tests/tui/walk.sh
test: $(B)/cudalings-tui
