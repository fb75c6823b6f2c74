# shellcheck shell=bash
# bash completion for fcast, generated from its command tree by `fcast completion bash`.
# Load it from ~/.bashrc:  source <(fcast completion bash)
# or save it where bash-completion looks:
#   fcast completion bash > ~/.local/share/bash-completion/completions/fcast

__fcast_spec() {
  __fcast_commands='' __fcast_options='' __fcast_value_options='' __fcast_option_values='' __fcast_args=''
  case "$1" in
    # @command-table@
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
    # @value-lists@
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
