# shellcheck shell=bash
# bash completion for fcast, generated from its command tree by `fcast completion bash`.
# Load it from ~/.bashrc:  source <(fcast completion bash)
# or save it where bash-completion looks:
#   fcast completion bash > ~/.local/share/bash-completion/completions/fcast

__fcast_spec() {
  __fcast_commands='' __fcast_options='' __fcast_value_options='' __fcast_option_values='' __fcast_args=''
  case "$1" in
    '')
      __fcast_commands='discover demo register auth config predict symbols track-record accuracy verify journal cmd api completion doctor mock mcp help'
      __fcast_options='-V --version --json --format --base-url --timeout --retries --max-wait --verbose --dry-run --strict --wide --no-color -h --help'
      __fcast_value_options='--format --base-url --timeout --retries --max-wait'
      __fcast_option_values='--format=list1'
      ;;
    'discover')
      __fcast_option_values='--format=list2'
      ;;
    'demo')
      __fcast_options='--tf --record --watch --interval --count --alert --on-alert --exit-on-alert'
      __fcast_value_options='--tf --interval --count --alert --on-alert'
      __fcast_option_values='--tf=list3 --format=list4'
      __fcast_args='list5'
      ;;
    'register')
      __fcast_options='--email --no-save --force'
      __fcast_value_options='--email'
      __fcast_option_values='--format=list6'
      ;;
    'auth')
      __fcast_commands='login status logout'
      ;;
    'auth login')
      __fcast_options='--gateway --force'
      __fcast_option_values='--format=list6'
      ;;
    'auth status')
      __fcast_options='--check'
      __fcast_option_values='--format=list6'
      ;;
    'auth logout')
      __fcast_options='--gateway -y --yes'
      __fcast_option_values='--format=list6'
      ;;
    'config')
      __fcast_commands='list get set unset path'
      ;;
    'config list')
      __fcast_option_values='--format=list2'
      ;;
    'config get')
      __fcast_option_values='--format=list6'
      __fcast_args='list7'
      ;;
    'config set')
      __fcast_option_values='--format=list6'
      __fcast_args='list8 -'
      ;;
    'config unset')
      __fcast_option_values='--format=list6'
      __fcast_args='list8'
      ;;
    'config path')
      __fcast_option_values='--format=list6'
      ;;
    'predict')
      __fcast_options='--candles --chart --tf --detail --record --watch --interval --count --alert --on-alert --exit-on-alert'
      __fcast_value_options='--tf --interval --count --alert --on-alert'
      __fcast_option_values='--tf=list3 --format=list4'
      __fcast_args='symbols...'
      ;;
    'symbols')
      __fcast_option_values='--format=list4'
      ;;
    'track-record')
      __fcast_options='--symbol --min-maturity --min-settled --min-win-rate --audit --baseline --min-new-settled --min-new-win-rate --save --no-annotations'
      __fcast_value_options='--symbol --min-maturity --min-settled --min-win-rate --baseline --min-new-settled --min-new-win-rate --save'
      __fcast_option_values='--symbol=symbols --min-maturity=list9 --format=list4'
      ;;
    'accuracy')
      __fcast_options='--tf --symbol --min-maturity --min-settled --min-win-rate --audit --baseline --min-new-settled --min-new-win-rate --save --no-annotations'
      __fcast_value_options='--tf --symbol --min-maturity --min-settled --min-win-rate --baseline --min-new-settled --min-new-win-rate --save'
      __fcast_option_values='--tf=list3 --symbol=symbols --min-maturity=list9 --format=list4'
      ;;
    'verify')
      __fcast_option_values='--format=list4'
      __fcast_args='-'
      ;;
    'journal')
      __fcast_commands='settle report compare list export import path prune'
      ;;
    'journal settle')
      __fcast_options='--symbol --tf --since --until --flat-band --adopt-unknown-origin'
      __fcast_value_options='--symbol --tf --since --until --flat-band'
      __fcast_option_values='--symbol=symbols --tf=list3 --format=list6'
      ;;
    'journal report')
      __fcast_options='--symbol --tf --since --until --min-settled --max-brier --min-hit-rate --origin --bins --flat-band --offline --no-annotations'
      __fcast_value_options='--symbol --tf --since --until --min-settled --max-brier --min-hit-rate --origin --bins --flat-band'
      __fcast_option_values='--symbol=symbols --tf=list3 --format=list10'
      ;;
    'journal compare')
      __fcast_options='--symbol --tf --since --until --origin --flat-band --bootstrap --block --seed --alpha --require-better --no-annotations'
      __fcast_value_options='--symbol --tf --since --until --origin --flat-band --bootstrap --block --seed --alpha --require-better'
      __fcast_option_values='--symbol=symbols --tf=list3 --format=list10'
      ;;
    'journal list')
      __fcast_options='--symbol --tf --since --until --status --alerts --origin --flat-band'
      __fcast_value_options='--symbol --tf --since --until --status --origin --flat-band'
      __fcast_option_values='--symbol=symbols --tf=list3 --format=list4'
      ;;
    'journal export')
      __fcast_options='--symbol --tf --since --until --origin --flat-band --prices'
      __fcast_value_options='--symbol --tf --since --until --origin --flat-band'
      __fcast_option_values='--symbol=symbols --tf=list3 --format=list11'
      ;;
    'journal import')
      __fcast_options='--origin'
      __fcast_value_options='--origin'
      __fcast_option_values='--format=list6'
      __fcast_args='-'
      ;;
    'journal path')
      __fcast_option_values='--format=list6'
      ;;
    'journal prune')
      __fcast_options='--before'
      __fcast_value_options='--before'
      __fcast_option_values='--format=list6'
      ;;
    'cmd')
      __fcast_commands='snapshot search indicators analyze opportunities macro calendar events'
      __fcast_args='- -...'
      ;;
    'cmd snapshot')
      __fcast_option_values='--format=list4'
      __fcast_args='-...'
      ;;
    'cmd search')
      __fcast_option_values='--format=list4'
      __fcast_args='- -'
      ;;
    'cmd indicators')
      __fcast_option_values='--format=list2'
      __fcast_args='symbols -'
      ;;
    'cmd analyze')
      __fcast_option_values='--format=list2'
      __fcast_args='symbols -'
      ;;
    'cmd opportunities')
      __fcast_option_values='--format=list4'
      __fcast_args='-...'
      ;;
    'cmd macro')
      __fcast_option_values='--format=list4'
      __fcast_args='-...'
      ;;
    'cmd calendar')
      __fcast_option_values='--format=list4'
      __fcast_args='symbols -'
      ;;
    'cmd events')
      __fcast_option_values='--format=list4'
      __fcast_args='- symbols -'
      ;;
    'api')
      __fcast_options='-X --method -f --raw-field -F --field --input -i --include'
      __fcast_value_options='-X --method -f --raw-field -F --field --input'
      __fcast_option_values='-X=list12 --method=list12 --format=list13'
      __fcast_args='list14'
      ;;
    'completion')
      __fcast_option_values='--format=list15'
      __fcast_args='list16'
      ;;
    'doctor')
      __fcast_option_values='--format=list6'
      ;;
    'mock')
      __fcast_options='--port --host --print-env --fresh --seed --clock --speed --fault'
      __fcast_value_options='--port --host --seed --clock --speed --fault'
      __fcast_option_values='--format=list15'
      ;;
    'mcp')
      __fcast_options='--toolsets --tools --read-only --http --max-output'
      __fcast_value_options='--toolsets --tools --http --max-output'
      __fcast_option_values='--format=list15'
      ;;
    'help')
      __fcast_args='list17'
      ;;
  esac
}

__fcast_values() {
  case "$1" in
    symbols)
      # A local cache, refreshed in the background at most once a day: TAB never waits for the network.
      local listed
      listed=$("$__fcast_program" __complete-symbols 2>/dev/null)
      __fcast_words+=" ${listed//$'\n'/ }"
      ;;
    list1) __fcast_words+=' table json csv tsv markdown jsonl' ;;
    list2) __fcast_words+=' table json markdown' ;;
    list3) __fcast_words+=' 1min 5min 15min 30min 1h 2h 3h 4h 6h 1d' ;;
    list4) __fcast_words+=' table json csv tsv markdown' ;;
    list5) __fcast_words+=' BTC/USD ETH/USD EUR/USD' ;;
    list6) __fcast_words+=' table json' ;;
    list7) __fcast_words+=' base-url timeout retries max-wait watchlist record config-dir data-dir' ;;
    list8) __fcast_words+=' base-url timeout retries max-wait watchlist record' ;;
    list9) __fcast_words+=' insufficient_sample early_sample growing_sample' ;;
    list10) __fcast_words+=' table json markdown csv tsv' ;;
    list11) __fcast_words+=' csv tsv jsonl' ;;
    list12) __fcast_words+=' GET POST PUT PATCH DELETE' ;;
    list13) __fcast_words+=' json' ;;
    list14) __fcast_words+=' api/agent/v1/ api/agent/v1/demo.php api/agent/v1/predictions.php api/agent/v1/symbols.php api/agent/v1/track-record.php api/agent/v1/accuracy.php api/agent/v1/verify.php api/v1/agent/command' ;;
    list15) __fcast_words+=' table' ;;
    list16) __fcast_words+=' bash zsh fish' ;;
    list17) __fcast_words+=' discover demo register auth config predict symbols track-record accuracy verify journal cmd api completion doctor mock mcp settings exit-codes forecasts watch alerts' ;;
  esac
}

__fcast_option_words() {
  local pair
  for pair in $__fcast_option_values $root_option_values; do
    if [[ ${pair%%=*} == "$1" ]]; then
      __fcast_values "${pair#*=}"
      return
    fi
  done
}

__fcast_argument_words() {
  local -a sources
  read -r -a sources <<< "$__fcast_args"
  local count=${#sources[@]} source
  if (( $1 < count )); then
    source=${sources[$1]}
  elif (( count > 0 )) && [[ ${sources[count-1]} == *... ]]; then
    source=${sources[count-1]}
  else
    return
  fi
  source=${source%...}
  [[ $source == - ]] || __fcast_values "$source"
}

_fcast() {
  # The lists below are split on blanks, whatever IFS the user's shell has.
  local IFS=$' \t\n'
  local __fcast_program=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} cmdpath='' value_of='' prefix='' ended='' word
  local __fcast_commands __fcast_options __fcast_value_options __fcast_option_values __fcast_args __fcast_words=''
  local position=0 i=1
  __fcast_spec ''
  local root_options=$__fcast_options root_value_options=$__fcast_value_options root_option_values=$__fcast_option_values
  while (( i < COMP_CWORD )); do
    word=${COMP_WORDS[i]}
    if [[ -z $ended && $word == -?* ]]; then
      if [[ $word == -- ]]; then
        ended=1
      elif [[ " $__fcast_value_options $root_value_options " == *" $word "* ]]; then
        i=$((i + 1))
        # `--tf=1h` arrives as three words: bash breaks words at '=' (COMP_WORDBREAKS).
        if [[ ${COMP_WORDS[i]} == = ]] && (( i < COMP_CWORD )); then i=$((i + 1)); fi
        if (( i == COMP_CWORD )); then
          value_of=$word
          [[ $cur == = ]] && cur=''
          break
        fi
      fi
    elif (( position == 0 )) && [[ " $__fcast_commands " == *" $word "* ]]; then
      cmdpath=${cmdpath:+$cmdpath }$word
      __fcast_spec "$cmdpath"
    else
      position=$((position + 1))
    fi
    i=$((i + 1))
  done
  if [[ -z $value_of && -z $ended && $cur == -?*=* ]]; then
    value_of=${cur%%=*}
    prefix=$value_of=
    cur=${cur#*=}
  fi
  if [[ -n $value_of ]]; then
    __fcast_option_words "$value_of"
  elif [[ -z $ended && $cur == -* ]]; then
    __fcast_words="$__fcast_options"
    [[ -n $cmdpath ]] && __fcast_words+=" $root_options"
  else
    (( position == 0 )) && __fcast_words=$__fcast_commands
    __fcast_argument_words "$position"
  fi
  COMPREPLY=()
  local -a candidates
  read -r -a candidates <<< "$__fcast_words"
  # Any case matches (`demo btc` offers BTC/USD); the word is replaced by the candidate as written.
  local nocase_was=1
  shopt -q nocasematch || nocase_was=''
  shopt -s nocasematch
  for word in "${candidates[@]}"; do
    [[ $word == "$cur"* ]] && COMPREPLY+=("$prefix$word")
  done
  [[ -n $nocase_was ]] || shopt -u nocasematch
  return 0
}

complete -F _fcast fcast
