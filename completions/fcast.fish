# fish completion for fcast, generated from its command tree by `fcast completion fish`.
# Save it where fish looks:  fcast completion fish > ~/.config/fish/completions/fcast.fish

function __fcast_spec
    set -g __fcast_commands
    set -g __fcast_command_names
    set -g __fcast_options
    set -g __fcast_value_options
    set -g __fcast_option_values
    set -g __fcast_args
    switch "$argv[1]"
        case ''
            set -g __fcast_commands 'discover'\t'the service\'s live routes, tiers and MCP endpoint' 'demo'\t'keyless forecasts for a demo symbol (60 min delayed)' 'register'\t'get a free API key for an e-mail address, and save it' 'auth'\t'store, show and remove API keys' 'config'\t'show and change settings' 'predict'\t'latest forecasts for symbols (needs a key)' 'symbols'\t'the symbols your key can use (needs a key)' 'track-record'\t'the public track record, per timeframe (no key)' 'accuracy'\t'the track record of a symbol or timeframe (no key)' 'verify'\t'one expired forecast and how it settled (no key)' 'journal'\t'settle, score and export the forecasts you were shown' 'cmd'\t'run a read-only gateway command (analyze, macro...)' 'api'\t'a raw request to any path of the service' 'completion'\t'the TAB-completion script for bash, zsh or fish' 'doctor'\t'check the setup and say how to fix each problem' 'mock'\t'serve an emulator of the whole API on loopback' 'mcp'\t'an MCP server over stdio, for AI assistants' 'help'\t'help on a command, or on a topic below'
            set -g __fcast_command_names 'discover' 'demo' 'register' 'auth' 'config' 'predict' 'symbols' 'track-record' 'accuracy' 'verify' 'journal' 'cmd' 'api' 'completion' 'doctor' 'mock' 'mcp' 'help'
            set -g __fcast_options '-V'\t'print the version' '--version'\t'print the version' '--json'\t'the body as JSON on stdout (= --format json)' '--format'\t'table, json, csv, tsv or markdown: see each command' '--base-url'\t'base URL of the service' '--timeout'\t'request deadline (default 30)' '--retries'\t'automatic retries (default 2)' '--max-wait'\t'longest wait accepted for a retry (default 60)' '--verbose'\t'log requests (keys redacted) and stack traces' '--dry-run'\t'print the request (key masked) and send nothing' '--strict'\t'exit 7 when a response breaks the documented shape' '--wide'\t'every table column, whatever the terminal width' '--no-color'\t'no colour, even with FORCE_COLOR' '-h'\t'show help' '--help'\t'show help'
            set -g __fcast_value_options '--format' '--base-url' '--timeout' '--retries' '--max-wait'
            set -g __fcast_option_values '--format=list1'
        case 'discover'
            set -g __fcast_option_values '--format=list2'
        case 'demo'
            set -g __fcast_options '--tf'\t'only these timeframes, e.g. 1h or 15min,1h,6h (repeatable; --json still prints the whole body)' '--record'\t'record the forecasts shown in the journal (see fcast journal --help; env FCAST_RECORD)' '--watch'\t'refresh until q or Ctrl-C: a live board on a terminal, a stream piped (--json: one line per response)' '--interval'\t'seconds between refreshes, at least 5 (default 60)' '--count'\t'stop after n refreshes, exiting with the last one\'s code' '--alert'\t'tell once when it turns true (\'fcast help alerts\')' '--on-alert'\t'with --alert: run cmd by the shell at each alert' '--exit-on-alert'\t'with --alert: end the watch, exit 0, at the first alert'
            set -g __fcast_value_options '--tf' '--interval' '--count' '--alert' '--on-alert'
            set -g __fcast_option_values '--tf=list3' '--format=list4'
            set -g __fcast_args 'list5'
        case 'register'
            set -g __fcast_options '--email'\t'your e-mail address (at most 190 characters)' '--no-save'\t'print the key without saving it' '--force'\t'replace a key already stored in the config file'
            set -g __fcast_value_options '--email'
            set -g __fcast_option_values '--format=list6'
        case 'auth'
            set -g __fcast_commands 'login'\t'store a key read from stdin or a hidden prompt' 'status'\t'show the keys in use, where they come from, and the base URL' 'logout'\t'remove a stored key (asks first)'
            set -g __fcast_command_names 'login' 'status' 'logout'
        case 'auth login'
            set -g __fcast_options '--gateway'\t'store the gateway key instead of the REST key' '--force'\t'replace a stored key without asking'
            set -g __fcast_option_values '--format=list6'
        case 'auth status'
            set -g __fcast_options '--check'\t'call the service to prove that the REST key works'
            set -g __fcast_option_values '--format=list6'
        case 'auth logout'
            set -g __fcast_options '--gateway'\t'remove the gateway key instead of the REST key' '-y'\t'do not ask (needed when stdin is not a terminal)' '--yes'\t'do not ask (needed when stdin is not a terminal)'
            set -g __fcast_option_values '--format=list6'
        case 'config'
            set -g __fcast_commands 'list'\t'every setting with its effective value and source (keys masked), then the directories' 'get'\t'print the effective value of one setting, or of a directory' 'set'\t'store a setting in the config file' 'unset'\t'remove a setting from the config file' 'path'\t'print the path of the config file'
            set -g __fcast_command_names 'list' 'get' 'set' 'unset' 'path'
        case 'config list'
            set -g __fcast_option_values '--format=list2'
        case 'config get'
            set -g __fcast_option_values '--format=list6'
            set -g __fcast_args 'list7'
        case 'config set'
            set -g __fcast_option_values '--format=list6'
            set -g __fcast_args 'list8' '-'
        case 'config unset'
            set -g __fcast_option_values '--format=list6'
            set -g __fcast_args 'list8'
        case 'config path'
            set -g __fcast_option_values '--format=list6'
        case 'predict'
            set -g __fcast_options '--candles'\t'ask for the 96 recent 15min and 1h candles too (candles=1)' '--chart'\t'draw the recent closes with the last price and the targets (implies --candles)' '--tf'\t'only these timeframes, e.g. 1h or 15min,1h,6h (repeatable; --json still prints the whole body)' '--detail'\t'with several symbols: each symbol\'s full table after the overview' '--record'\t'record the forecasts shown in the journal (see fcast journal --help; env FCAST_RECORD)' '--watch'\t'refresh until q or Ctrl-C: a live board on a terminal, a stream piped (--json: one line per response)' '--interval'\t'seconds between refreshes, at least 5 (default 60)' '--count'\t'stop after n refreshes, exiting with the last one\'s code' '--alert'\t'tell once when it turns true (\'fcast help alerts\')' '--on-alert'\t'with --alert: run cmd by the shell at each alert' '--exit-on-alert'\t'with --alert: end the watch, exit 0, at the first alert'
            set -g __fcast_value_options '--tf' '--interval' '--count' '--alert' '--on-alert'
            set -g __fcast_option_values '--tf=list3' '--format=list4'
            set -g __fcast_args 'symbols...'
        case 'symbols'
            set -g __fcast_option_values '--format=list4'
        case 'track-record'
            set -g __fcast_options '--symbol'\t'only this symbol, BASE/QUOTE (e.g. BTC/USD; case-insensitive)' '--min-maturity'\t'gate: every timeframe at least this mature (insufficient_sample < early_sample < growing_sample)' '--min-settled'\t'gate: every timeframe has at least N settled forecasts' '--min-win-rate'\t'gate: every resolved_win_rate at least R, 0..1 (a null rate fails)' '--audit'\t'recompute each win rate and its Wilson 95% interval from the outcome counts; exit 8 on a disagreement' '--baseline'\t'an earlier --json output of this command (same --symbol/--tf): exit 8 if a count went down or a timeframe vanished; show what is new since' '--min-new-settled'\t'gate: every timeframe has at least N settlements since the baseline; TF=N for one timeframe (20,6h=5,1d=0)' '--min-new-win-rate'\t'gate: the resolved win rate since the baseline at least R in every timeframe, 0..1 (a null rate fails)' '--save'\t'write the body as received (indented like --json) to FILE, atomically, after the comparison; skipped on exit 8' '--no-annotations'\t'under GitHub Actions (GITHUB_ACTIONS=true): no ::error/::warning lines on stderr, no step summary'
            set -g __fcast_value_options '--symbol' '--min-maturity' '--min-settled' '--min-win-rate' '--baseline' '--min-new-settled' '--min-new-win-rate' '--save'
            set -g __fcast_option_values '--symbol=symbols' '--min-maturity=list9' '--format=list4'
        case 'accuracy'
            set -g __fcast_options '--tf'\t'only this timeframe: 1min, 5min, 15min, 30min, 1h, 2h, 3h, 4h, 6h, 1d' '--symbol'\t'only this symbol, BASE/QUOTE (e.g. BTC/USD; case-insensitive)' '--min-maturity'\t'gate: every timeframe at least this mature (insufficient_sample < early_sample < growing_sample)' '--min-settled'\t'gate: every timeframe has at least N settled forecasts' '--min-win-rate'\t'gate: every resolved_win_rate at least R, 0..1 (a null rate fails)' '--audit'\t'recompute each win rate and its Wilson 95% interval from the outcome counts; exit 8 on a disagreement' '--baseline'\t'an earlier --json output of this command (same --symbol/--tf): exit 8 if a count went down or a timeframe vanished; show what is new since' '--min-new-settled'\t'gate: every timeframe has at least N settlements since the baseline; TF=N for one timeframe (20,6h=5,1d=0)' '--min-new-win-rate'\t'gate: the resolved win rate since the baseline at least R in every timeframe, 0..1 (a null rate fails)' '--save'\t'write the body as received (indented like --json) to FILE, atomically, after the comparison; skipped on exit 8' '--no-annotations'\t'under GitHub Actions (GITHUB_ACTIONS=true): no ::error/::warning lines on stderr, no step summary'
            set -g __fcast_value_options '--tf' '--symbol' '--min-maturity' '--min-settled' '--min-win-rate' '--baseline' '--min-new-settled' '--min-new-win-rate' '--save'
            set -g __fcast_option_values '--tf=list3' '--symbol=symbols' '--min-maturity=list9' '--format=list4'
        case 'verify'
            set -g __fcast_option_values '--format=list4'
            set -g __fcast_args '-'
        case 'journal'
            set -g __fcast_commands 'settle'\t'settle the forecasts whose target time has passed' 'report'\t'scores, reliability and the service beside them, per timeframe' 'compare'\t'the engines and climatology compared on your settled forecasts' 'list'\t'the recorded forecasts, one row each' 'export'\t'every forecast with its settlement, as CSV or JSON Lines' 'import'\t'merge an export into the journal' 'path'\t'where the journal is' 'prune'\t'remove the records dated before a date'
            set -g __fcast_command_names 'settle' 'report' 'compare' 'list' 'export' 'import' 'path' 'prune'
        case 'journal settle'
            set -g __fcast_options '--symbol'\t'only these symbols (repeatable)' '--tf'\t'only these timeframes, e.g. 15min,1h (repeatable)' '--since'\t'only forecasts made at or after this time (ISO 8601 or epoch seconds)' '--until'\t'only forecasts made before this time' '--flat-band'\t'neutral when |return| is below this many percent (default 0.01, the service\'s)' '--adopt-unknown-origin'\t'also settle the forecasts recorded before fcast kept origins, with this base URL\'s prices (say so only if they came from it)'
            set -g __fcast_value_options '--symbol' '--tf' '--since' '--until' '--flat-band'
            set -g __fcast_option_values '--symbol=symbols' '--tf=list3' '--format=list6'
        case 'journal report'
            set -g __fcast_options '--symbol'\t'only these symbols (repeatable)' '--tf'\t'only these timeframes, e.g. 15min,1h (repeatable)' '--since'\t'only forecasts made at or after this time (ISO 8601 or epoch seconds)' '--until'\t'only forecasts made before this time' '--min-settled'\t'gate: every timeframe has at least N settled forecasts' '--max-brier'\t'gate: every timeframe\'s call.brier at most X, 0..1 (null fails)' '--min-hit-rate'\t'gate: every timeframe\'s hit_rate at least R, 0..1 (null fails)' '--origin'\t'only the records of this service (default: the base URL\'s; unknown: recorded before fcast kept origins; all: every one)' '--bins'\t'reliability bins over [0, 1] (default 10)' '--flat-band'\t'neutral when |return| is below this many percent (default 0.01, the service\'s)' '--offline'\t'no track-record requests: the service\'s figures are left out' '--no-annotations'\t'under GitHub Actions (GITHUB_ACTIONS=true): no ::error/::warning lines on stderr, no step summary'
            set -g __fcast_value_options '--symbol' '--tf' '--since' '--until' '--min-settled' '--max-brier' '--min-hit-rate' '--origin' '--bins' '--flat-band'
            set -g __fcast_option_values '--symbol=symbols' '--tf=list3' '--format=list10'
        case 'journal compare'
            set -g __fcast_options '--symbol'\t'only these symbols (repeatable)' '--tf'\t'only these timeframes, e.g. 15min,1h (repeatable)' '--since'\t'only forecasts made at or after this time (ISO 8601 or epoch seconds)' '--until'\t'only forecasts made before this time' '--origin'\t'only the records of this service (default: the base URL\'s; unknown: recorded before fcast kept origins; all: every one)' '--flat-band'\t'neutral when |return| is below this many percent (default 0.01, the service\'s)' '--bootstrap'\t'bootstrap replicates (default 2000)' '--block'\t'the bootstrap\'s block length (default ⌈n^(1/3)⌉; never below the horizon\'s h)' '--seed'\t'the bootstrap\'s seed (default 1: the same figures every run)' '--alpha'\t'the significance level of the verdict and the gate (default 0.05)' '--require-better'\t'gate: A beats B on RPS with Holm-adjusted DM p below --alpha in every timeframe (ia2, ia3, climatology)' '--no-annotations'\t'under GitHub Actions (GITHUB_ACTIONS=true): no ::error/::warning lines on stderr, no step summary'
            set -g __fcast_value_options '--symbol' '--tf' '--since' '--until' '--origin' '--flat-band' '--bootstrap' '--block' '--seed' '--alpha' '--require-better'
            set -g __fcast_option_values '--symbol=symbols' '--tf=list3' '--format=list10'
        case 'journal list'
            set -g __fcast_options '--symbol'\t'only these symbols (repeatable)' '--tf'\t'only these timeframes, e.g. 15min,1h (repeatable)' '--since'\t'only forecasts made at or after this time (ISO 8601 or epoch seconds)' '--until'\t'only forecasts made before this time' '--status'\t'only open, settled or unsettleable ones (comma-separated)' '--alerts'\t'the alerts a watch noted instead (--watch --alert --record)' '--origin'\t'only the records of this service (default: the base URL\'s; unknown: recorded before fcast kept origins; all: every one)' '--flat-band'\t'neutral when |return| is below this many percent (default 0.01, the service\'s)'
            set -g __fcast_value_options '--symbol' '--tf' '--since' '--until' '--status' '--origin' '--flat-band'
            set -g __fcast_option_values '--symbol=symbols' '--tf=list3' '--format=list4'
        case 'journal export'
            set -g __fcast_options '--symbol'\t'only these symbols (repeatable)' '--tf'\t'only these timeframes, e.g. 15min,1h (repeatable)' '--since'\t'only forecasts made at or after this time (ISO 8601 or epoch seconds)' '--until'\t'only forecasts made before this time' '--origin'\t'only the records of this service (default: the base URL\'s; unknown: recorded before fcast kept origins; all: every one)' '--flat-band'\t'neutral when |return| is below this many percent (default 0.01, the service\'s)' '--prices'\t'with --format jsonl: also the recorded price observations, as the journal\'s own lines after each month\'s rows (what an import into an empty journal needs to give every record back)'
            set -g __fcast_value_options '--symbol' '--tf' '--since' '--until' '--origin' '--flat-band'
            set -g __fcast_option_values '--symbol=symbols' '--tf=list3' '--format=list11'
        case 'journal import'
            set -g __fcast_options '--origin'\t'the service of the rows that name none (an export from before fcast kept origins); default unknown'
            set -g __fcast_value_options '--origin'
            set -g __fcast_option_values '--format=list6'
            set -g __fcast_args '-'
        case 'journal path'
            set -g __fcast_option_values '--format=list6'
        case 'journal prune'
            set -g __fcast_options '--before'\t'ISO 8601 time or epoch seconds'
            set -g __fcast_value_options '--before'
            set -g __fcast_option_values '--format=list6'
        case 'cmd'
            set -g __fcast_commands 'snapshot'\t'cached market snapshot' 'search'\t'discover supported symbols and their status' 'indicators'\t'cached indicators for a symbol and timeframe' 'analyze'\t'bias, confidence, drivers and derived indicators' 'opportunities'\t'prioritised feed of cached opportunities' 'macro'\t'macro snapshot for cross-asset context' 'calendar'\t'asset calendar and market state' 'events'\t'economic events, earnings, dividends and crypto events'
            set -g __fcast_command_names 'snapshot' 'search' 'indicators' 'analyze' 'opportunities' 'macro' 'calendar' 'events'
            set -g __fcast_args '-' '-...'
        case 'cmd snapshot'
            set -g __fcast_option_values '--format=list4'
            set -g __fcast_args '-...'
        case 'cmd search'
            set -g __fcast_option_values '--format=list4'
            set -g __fcast_args '-' '-'
        case 'cmd indicators'
            set -g __fcast_option_values '--format=list2'
            set -g __fcast_args 'symbols' '-'
        case 'cmd analyze'
            set -g __fcast_option_values '--format=list2'
            set -g __fcast_args 'symbols' '-'
        case 'cmd opportunities'
            set -g __fcast_option_values '--format=list4'
            set -g __fcast_args '-...'
        case 'cmd macro'
            set -g __fcast_option_values '--format=list4'
            set -g __fcast_args '-...'
        case 'cmd calendar'
            set -g __fcast_option_values '--format=list4'
            set -g __fcast_args 'symbols' '-'
        case 'cmd events'
            set -g __fcast_option_values '--format=list4'
            set -g __fcast_args '-' 'symbols' '-'
        case 'api'
            set -g __fcast_options '-X'\t'GET, POST, PUT, PATCH, DELETE (default GET; POST with --input)' '--method'\t'GET, POST, PUT, PATCH, DELETE (default GET; POST with --input)' '-f'\t'a string field, repeatable: the query of a GET, else a field of the JSON body' '--raw-field'\t'a string field, repeatable: the query of a GET, else a field of the JSON body' '-F'\t'a typed field, repeatable: true, false, null, numbers and JSON as their value' '--field'\t'a typed field, repeatable: true, false, null, numbers and JSON as their value' '--input'\t'the body, sent as it is (- for stdin); fields then go to the query' '-i'\t'print the status line and the headers on stderr' '--include'\t'print the status line and the headers on stderr'
            set -g __fcast_value_options '-X' '--method' '-f' '--raw-field' '-F' '--field' '--input'
            set -g __fcast_option_values '-X=list12' '--method=list12' '--format=list13'
            set -g __fcast_args 'list14'
        case 'completion'
            set -g __fcast_option_values '--format=list15'
            set -g __fcast_args 'list16'
        case 'doctor'
            set -g __fcast_option_values '--format=list6'
        case 'mock'
            set -g __fcast_options '--port'\t'port to listen on (default: 0, a free one)' '--host'\t'address to listen on' '--print-env'\t'print only the export lines, then release stdout (for eval; see the examples)' '--fresh'\t'forget the keys registered in earlier runs and the emulated clock (kept in the data directory) and start clean' '--seed'\t'seed of the emulated data (default: the emulator\'s own, fcast-mock)' '--clock'\t'start the emulated clock at this time: ISO 8601 (UTC unless a zone is given) or epoch seconds (default: where it stood when the emulator last stopped, else now)' '--speed'\t'run the emulated clock n times as fast as real time (default 1; 0 stops it)' '--fault'\t'inject a fault, repeatable: 429 | 503 | slow | html | reset | truncate | huge | shrink (the track record loses settlements), with options like 429,times=2,retry-after=3 or slow,delay=1500 or reset,path=demo.php'
            set -g __fcast_value_options '--port' '--host' '--seed' '--clock' '--speed' '--fault'
            set -g __fcast_option_values '--format=list15'
        case 'mcp'
            set -g __fcast_options '--toolsets'\t'only these toolsets, comma-separated: forecasts, evidence, gateway, journal, service' '--tools'\t'only these tools, comma-separated (see docs/mcp.md for the list)' '--read-only'\t'only tools that change nothing (every tool of this version is read-only)' '--http'\t'serve Streamable HTTP on 127.0.0.1 (a free port unless given) instead of stdio, until Ctrl-C' '--max-output'\t'the text budget of one result; longer results page by cursor (default 24000)'
            set -g __fcast_value_options '--toolsets' '--tools' '--http' '--max-output'
            set -g __fcast_option_values '--format=list15'
        case 'help'
            set -g __fcast_args 'list17'
    end
end

function __fcast_values
    switch $argv[1]
        case symbols
            # A local cache, refreshed in the background at most once a day: TAB never waits for the network.
            $__fcast_program __complete-symbols 2>/dev/null
        case list1
            printf '%s\n' 'table' 'json' 'csv' 'tsv' 'markdown' 'jsonl'
        case list2
            printf '%s\n' 'table' 'json' 'markdown'
        case list3
            printf '%s\n' '1min' '5min' '15min' '30min' '1h' '2h' '3h' '4h' '6h' '1d'
        case list4
            printf '%s\n' 'table' 'json' 'csv' 'tsv' 'markdown'
        case list5
            printf '%s\n' 'BTC/USD' 'ETH/USD' 'EUR/USD'
        case list6
            printf '%s\n' 'table' 'json'
        case list7
            printf '%s\n' 'base-url' 'timeout' 'retries' 'max-wait' 'watchlist' 'record' 'config-dir' 'data-dir'
        case list8
            printf '%s\n' 'base-url' 'timeout' 'retries' 'max-wait' 'watchlist' 'record'
        case list9
            printf '%s\n' 'insufficient_sample' 'early_sample' 'growing_sample'
        case list10
            printf '%s\n' 'table' 'json' 'markdown' 'csv' 'tsv'
        case list11
            printf '%s\n' 'csv' 'tsv' 'jsonl'
        case list12
            printf '%s\n' 'GET' 'POST' 'PUT' 'PATCH' 'DELETE'
        case list13
            printf '%s\n' 'json'
        case list14
            printf '%s\n' 'api/agent/v1/' 'api/agent/v1/demo.php' 'api/agent/v1/predictions.php' 'api/agent/v1/symbols.php' 'api/agent/v1/track-record.php' 'api/agent/v1/accuracy.php' 'api/agent/v1/verify.php' 'api/v1/agent/command'
        case list15
            printf '%s\n' 'table'
        case list16
            printf '%s\n' 'bash' 'zsh' 'fish'
        case list17
            printf '%s\n' 'discover' 'demo' 'register' 'auth' 'config' 'predict' 'symbols' 'track-record' 'accuracy' 'verify' 'journal' 'cmd' 'api' 'completion' 'doctor' 'mock' 'mcp' 'settings' 'exit-codes' 'forecasts' 'watch' 'alerts'
    end
end

function __fcast_argument_words
    set -l position $argv[1]
    set -l count (count $__fcast_args)
    set -l source
    if test $position -lt $count
        set source $__fcast_args[(math $position + 1)]
    else if test $count -gt 0; and string match -q -- '*...' $__fcast_args[-1]
        set source $__fcast_args[-1]
    else
        return
    end
    set source (string replace -- '...' '' $source)
    test "$source" = -; or __fcast_values $source
end

function __fcast_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -g __fcast_program $tokens[1]
    set -l cmdpath ''
    set -l value_of ''
    set -l ended ''
    set -l prefix ''
    set -l position 0
    __fcast_spec ''
    set -l root_options $__fcast_options
    set -l root_value_options $__fcast_value_options
    set -l root_option_values $__fcast_option_values
    set -l count (count $tokens)
    set -l i 2
    while test $i -le $count
        set -l word $tokens[$i]
        if test -z "$ended"; and string match -q -- '-?*' $word
            if test "$word" = --
                set ended 1
            else if contains -- $word $__fcast_value_options $root_value_options
                set i (math $i + 1)
                if test $i -gt $count
                    set value_of $word
                    break
                end
            end
        else if test $position -eq 0; and contains -- $word $__fcast_command_names
            if test -n "$cmdpath"
                set cmdpath "$cmdpath $word"
            else
                set cmdpath $word
            end
            __fcast_spec $cmdpath
        else
            set position (math $position + 1)
        end
        set i (math $i + 1)
    end
    if test -z "$value_of"; and test -z "$ended"; and string match -q -- '-?*=*' $cur
        set value_of (string split -m 1 = -- $cur)[1]
        set prefix "$value_of="
    end
    if test -n "$value_of"
        for pair in $__fcast_option_values $root_option_values
            set -l parts (string split -m 1 = -- $pair)
            if test "$parts[1]" = "$value_of"
                for value in (__fcast_values $parts[2])
                    printf '%s%s\n' $prefix $value
                end
                return
            end
        end
    else if test -z "$ended"; and string match -q -- '-*' $cur
        string join \n -- $__fcast_options
        test -n "$cmdpath"; and string join \n -- $root_options
    else
        test $position -eq 0; and string join \n -- $__fcast_commands
        __fcast_argument_words $position
    end
end

complete -c fcast -f -a '(__fcast_complete)'
